import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * The durable side of an A2A task: one row per task for listing and filtering, holding the full
 * task once it is finished so `tasks/get` answers after the key-value record's TTL.
 */
@Entity({ name: 'a2a_tasks' })
@Index('idx_a2a_tasks_listing', ['agentId', 'owner', 'updatedAt', 'taskId'])
@Index('idx_a2a_tasks_context', ['agentId', 'owner', 'contextId'])
export class A2aTaskEntity {
  @PrimaryColumn('text', { name: 'agent_id' })
  agentId: string;

  @PrimaryColumn('text')
  owner: string;

  @PrimaryColumn('text', { name: 'task_id' })
  taskId: string;

  @Column('text', { name: 'context_id' })
  contextId: string;

  /** TaskState name, e.g. TASK_STATE_WORKING. */
  @Column('text')
  state: string;

  @Column('timestamptz', { name: 'created_at' })
  createdAt: Date;

  @Column('timestamptz', { name: 'updated_at' })
  updatedAt: Date;

  /** The task as ProtoJSON, kept once it reached a terminal state. */
  @Column('jsonb', { name: 'final_task', nullable: true })
  finalTask: unknown;
}
