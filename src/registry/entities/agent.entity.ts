import { Column, Entity, PrimaryColumn } from 'typeorm';

export type AgentStatus = 'connected' | 'unreachable' | 'disabled';
/** How the hub authenticates to a remote agent. */
export const AGENT_AUTH_MODES = ['none', 'api_key', 'bearer'] as const;
export type AgentAuthMode = (typeof AGENT_AUTH_MODES)[number];

/** A remote A2A agent the hub resolved and hosts. (Built-in agents are not stored.) */
@Entity({ name: 'agents' })
export class AgentEntity {
  /** Slug: lower-case letters, digits and dashes. */
  @PrimaryColumn('text')
  id: string;

  @Column('text')
  name: string;

  @Column('text', { name: 'base_url' })
  baseUrl: string;

  /** Where the card was found (the well-known path or its legacy twin). */
  @Column('text', { name: 'card_url' })
  cardUrl: string;

  /** The agent's own card, as it served it. */
  @Column('jsonb')
  card: Record<string, unknown>;

  @Column('text')
  status: AgentStatus;

  @Column('text', { name: 'auth_mode' })
  authMode: AgentAuthMode;

  /** Header name for `api_key` mode, e.g. X-Api-Key. */
  @Column('text', { name: 'auth_header', nullable: true })
  authHeader: string | null;

  /** The credential the hub sends, sealed with SecretBox; never returned by the API. */
  @Column('text', { name: 'auth_secret_sealed', nullable: true })
  authSecretSealed: string | null;

  @Column('timestamptz', { name: 'last_seen_at', nullable: true })
  lastSeenAt: Date | null;

  /** Why the last health check failed; null after a successful one. */
  @Column('text', { name: 'last_check_error', nullable: true })
  lastCheckError: string | null;

  @Column('timestamptz', { name: 'created_at' })
  createdAt: Date;

  @Column('timestamptz', { name: 'updated_at' })
  updatedAt: Date;
}
