import { Column, Entity, PrimaryColumn } from 'typeorm';

/** One push notification of a task-tree execution: where it went and how it ended. */
@Entity({ name: 'task_push_deliveries' })
export class TaskPushDeliveryEntity {
  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid', { name: 'execution_id' })
  executionId: string;

  @Column('uuid', { name: 'task_id' })
  taskId: string;

  /** Scheme, host and path: never the query string or credentials. */
  @Column('text')
  target: string;

  /** The task status the notification announced. */
  @Column('text')
  status: string;

  @Column('text')
  outcome: 'delivered' | 'failed';

  @Column('integer')
  attempts: number;

  @Column('integer', { name: 'http_status', nullable: true })
  httpStatus: number | null;

  @Column('text', { nullable: true })
  error: string | null;

  @Column('timestamptz', { name: 'created_at' })
  createdAt: Date;
}
