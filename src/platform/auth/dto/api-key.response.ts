import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { ApiKeyEntity } from '../entities/api-key.entity';
import type { Scope } from '../scopes';
import { SCOPES } from '../scopes';

export type ApiKeyStatus = 'active' | 'expired' | 'revoked';

/** A key as the API and CLI show it: never the key or its hash. */
export class ApiKeyResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() name: string;
  @ApiProperty({ description: 'Identity that owned data (tasks, conversations) is scoped to; the key id unless set' })
  owner: string;
  @ApiProperty({ enum: SCOPES, isArray: true }) scopes: Scope[];
  @ApiProperty({ description: 'Identifying head of the key (not secret)' }) prefix: string;
  @ApiProperty({ enum: ['created', 'env', 'first-start'] }) source: ApiKeyEntity['source'];
  @ApiProperty({ enum: ['active', 'expired', 'revoked'] }) status: ApiKeyStatus;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiPropertyOptional({ format: 'date-time', nullable: true }) expires_at: string | null;
  @ApiPropertyOptional({ format: 'date-time', nullable: true }) revoked_at: string | null;
  @ApiPropertyOptional({ format: 'date-time', nullable: true }) last_used_at: string | null;

  static from(entity: ApiKeyEntity, now = new Date()): ApiKeyResponse {
    const status: ApiKeyStatus = entity.revokedAt
      ? 'revoked'
      : entity.expiresAt && entity.expiresAt <= now
        ? 'expired'
        : 'active';
    return Object.assign(new ApiKeyResponse(), {
      id: entity.id,
      name: entity.name,
      owner: entity.owner,
      scopes: entity.scopes as Scope[],
      prefix: entity.lookupPrefix,
      source: entity.source,
      status,
      created_at: entity.createdAt.toISOString(),
      expires_at: entity.expiresAt?.toISOString() ?? null,
      revoked_at: entity.revokedAt?.toISOString() ?? null,
      last_used_at: entity.lastUsedAt?.toISOString() ?? null,
    });
  }
}

/** Returned once, at creation: the only time the key itself is ever shown. */
export class CreatedApiKeyResponse extends ApiKeyResponse {
  @ApiProperty({ description: 'The API key. Shown only in this response; store it now.' })
  key: string;
}
