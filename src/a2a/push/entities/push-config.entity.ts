import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A webhook a client registered for an A2A task. Token and credentials are sealed (SecretBox). */
@Entity({ name: 'a2a_push_configs' })
export class PushConfigEntity {
  @PrimaryColumn('text', { name: 'agent_id' })
  agentId: string;

  @PrimaryColumn('text')
  owner: string;

  @PrimaryColumn('text', { name: 'task_id' })
  taskId: string;

  @PrimaryColumn('text', { name: 'config_id' })
  configId: string;

  @Column('text')
  url: string;

  @Column('text', { name: 'token_sealed', nullable: true })
  tokenSealed: string | null;

  @Column('text', { name: 'auth_scheme', nullable: true })
  authScheme: string | null;

  @Column('text', { name: 'auth_credentials_sealed', nullable: true })
  authCredentialsSealed: string | null;

  /** The A2A version the webhook was registered over; notifications keep that wire format. */
  @Column('text', { name: 'wire_version' })
  wireVersion: string;

  @Column('timestamptz', { name: 'created_at' })
  createdAt: Date;
}
