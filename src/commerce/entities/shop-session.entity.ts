import { Column, Entity, PrimaryColumn } from 'typeorm';

/** An agent's shopping session. Its token and its checkout link's token are stored only hashed. */
@Entity({ name: 'shop_sessions' })
export class ShopSessionEntity {
  @PrimaryColumn('uuid')
  id: string;

  @Column('text', { name: 'token_hash' })
  tokenHash: string;

  @Column('text', { name: 'checkout_token_hash', nullable: true })
  checkoutTokenHash: string | null;

  @Column('timestamptz', { name: 'created_at' })
  createdAt: Date;

  @Column('timestamptz', { name: 'expires_at' })
  expiresAt: Date;

  @Column('timestamptz', { name: 'ended_at', nullable: true })
  endedAt: Date | null;
}
