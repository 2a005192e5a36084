import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** How a key came to exist: made by the CLI or REST, from ADMIN_API_KEY, or on first start. */
export type ApiKeySource = 'created' | 'env' | 'first-start';

@Entity({ name: 'api_keys' })
export class ApiKeyEntity {
  @PrimaryColumn('uuid')
  id: string;

  @Column('text')
  name: string;

  /** The identity the key acts as; tasks and other owned data are scoped to it. */
  @Column('text')
  owner: string;

  /** The first characters of the key, stored in clear to find the candidate rows. */
  @Index('idx_api_keys_lookup_prefix')
  @Column('text', { name: 'lookup_prefix' })
  lookupPrefix: string;

  /** SHA-256 of the whole key, hex. The key itself is never stored. */
  @Column('text', { name: 'key_hash' })
  keyHash: string;

  @Column('text', { array: true })
  scopes: string[];

  @Column('text')
  source: ApiKeySource;

  @Column('timestamptz', { name: 'created_at' })
  createdAt: Date;

  @Column('timestamptz', { name: 'expires_at', nullable: true })
  expiresAt: Date | null;

  @Column('timestamptz', { name: 'revoked_at', nullable: true })
  revokedAt: Date | null;

  @Column('timestamptz', { name: 'last_used_at', nullable: true })
  lastUsedAt: Date | null;
}
