import { ApiProperty } from '@nestjs/swagger';
import { IsString, Length } from 'class-validator';
import type { ConsoleSession } from '../../platform/auth/console-sessions';
import { SCOPES, Scope } from '../../platform/auth/scopes';

/** Sign in to the console with an API key; the key is exchanged for a session cookie and never kept. */
export class SignInDto {
  @ApiProperty({ description: 'An API key (admin or narrower)' })
  @IsString()
  @Length(1, 512)
  api_key: string;
}

class SessionKeyDto {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty() name: string;
}

/** A console session as the browser sees it: the key it acts as (never the key itself), its scopes and CSRF token. */
export class ConsoleSessionResponse {
  @ApiProperty({ type: SessionKeyDto }) key: SessionKeyDto;
  @ApiProperty({ enum: SCOPES, isArray: true }) scopes: Scope[];
  @ApiProperty({ description: 'Send as X-CSRF-Token on every POST, PUT, PATCH and DELETE signed in by the cookie' })
  csrf_token: string;
  @ApiProperty({ format: 'date-time' }) expires_at: string;

  static from(session: ConsoleSession): ConsoleSessionResponse {
    return Object.assign(new ConsoleSessionResponse(), {
      key: { id: session.principal.keyId, name: session.principal.keyName },
      scopes: [...session.principal.scopes],
      csrf_token: session.csrfToken,
      expires_at: session.expiresAt.toISOString(),
    });
  }
}
