import { Column, Entity, PrimaryColumn } from 'typeorm';

export type ExecutionStatus = 'running' | 'completed' | 'failed' | 'cancelled';

/** Where an execution reports state changes; the headers are sealed (they often carry tokens). */
export interface StoredPushConfig {
  url: string;
  method: 'POST' | 'PUT';
  headersSealed: string | null;
}

/**
 * One run of a task tree. While `running`, one replica holds its lease and drives it; a lease
 * that is not renewed expires and another replica takes the execution over.
 */
@Entity({ name: 'task_executions' })
export class TaskExecutionEntity {
  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid', { name: 'root_id' })
  rootId: string;

  @Column('text', { name: 'user_id' })
  userId: string;

  @Column('text')
  status: ExecutionStatus;

  @Column('text', { name: 'lease_owner', nullable: true })
  leaseOwner: string | null;

  @Column('timestamptz', { name: 'lease_expires_at', nullable: true })
  leaseExpiresAt: Date | null;

  @Column('jsonb', { name: 'push_config', nullable: true })
  pushConfig: StoredPushConfig | null;

  @Column('timestamptz', { name: 'created_at' })
  createdAt: Date;

  @Column('timestamptz', { name: 'updated_at' })
  updatedAt: Date;

  @Column('timestamptz', { name: 'finished_at', nullable: true })
  finishedAt: Date | null;
}
