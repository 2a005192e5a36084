import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** One push notification and what became of it: the delivery log. */
@Entity({ name: 'a2a_push_deliveries' })
@Index('idx_a2a_push_deliveries_task', ['agentId', 'taskId', 'createdAt'])
export class PushDeliveryEntity {
  @PrimaryColumn('uuid')
  id: string;

  @Column('text', { name: 'agent_id' })
  agentId: string;

  @Column('text', { name: 'task_id' })
  taskId: string;

  @Column('text', { name: 'config_id' })
  configId: string;

  /** Scheme, host and path of the webhook: query strings can carry secrets and are left out. */
  @Column('text')
  target: string;

  /** What was sent: task, statusUpdate, artifactUpdate or message. */
  @Column('text')
  event: string;

  @Column('text')
  outcome: 'delivered' | 'failed';

  @Column('int')
  attempts: number;

  @Column('int', { name: 'http_status', nullable: true })
  httpStatus: number | null;

  @Column('text', { nullable: true })
  error: string | null;

  @Column('timestamptz', { name: 'created_at' })
  createdAt: Date;
}
