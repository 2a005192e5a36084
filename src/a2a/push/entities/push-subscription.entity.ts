import { Column, Entity, PrimaryColumn } from 'typeorm';

/** The kinds of task update an agent-wide webhook can ask for. */
export const PUSH_EVENTS = ['status_update', 'artifact_update'] as const;
export type PushEvent = (typeof PUSH_EVENTS)[number];

/** An agent-wide webhook: notified of every task update of one owner's tasks with one agent. */
@Entity({ name: 'a2a_push_subscriptions' })
export class PushSubscriptionEntity {
  @PrimaryColumn('uuid')
  id: string;

  @Column('text', { name: 'agent_id' })
  agentId: string;

  @Column('text')
  owner: string;

  @Column('text')
  url: string;

  @Column('text', { array: true })
  events: PushEvent[];

  @Column('timestamptz', { name: 'created_at' })
  createdAt: Date;

  @Column('timestamptz', { name: 'updated_at' })
  updatedAt: Date;
}
