import { Column, Entity, PrimaryColumn } from 'typeorm';

export const TASK_STATUSES = ['pending', 'in_progress', 'completed', 'failed', 'cancelled'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

export interface TaskDependency {
  id: string;
  /** A required dependency must complete before the task runs; an optional one only finish. */
  required: boolean;
}

export function isFinished(status: TaskStatus): boolean {
  return status === 'completed' || status === 'failed' || status === 'cancelled';
}

/** One task of an apflow task tree. */
@Entity({ name: 'tasks' })
export class TaskEntity {
  @PrimaryColumn('uuid')
  id: string;

  /** The tree's root task (the task's own id for a root). */
  @Column('uuid', { name: 'root_id' })
  rootId: string;

  @Column('uuid', { name: 'parent_id', nullable: true })
  parentId: string | null;

  /** The owner of the API key that created the task. */
  @Column('text', { name: 'user_id' })
  userId: string;

  @Column('text')
  name: string;

  /** 0 urgent … 3 low. */
  @Column('smallint')
  priority: number;

  @Column('jsonb')
  inputs: Record<string, unknown>;

  /** Executor settings (apflow `params`). */
  @Column('jsonb')
  params: Record<string, unknown>;

  /** `method` names the executor. */
  @Column('jsonb')
  schemas: Record<string, unknown>;

  @Column('jsonb')
  dependencies: TaskDependency[];

  @Column('text')
  status: TaskStatus;

  @Column('jsonb', { nullable: true })
  result: unknown;

  @Column('text', { nullable: true })
  error: string | null;

  @Column('real')
  progress: number;

  /** Incremented each time the task starts: completions are fenced on it (at most once per attempt). */
  @Column('integer')
  attempt: number;

  /** The execution that last ran the task. */
  @Column('uuid', { name: 'execution_id', nullable: true })
  executionId: string | null;

  /** Optimistic concurrency: bumped by every write. */
  @Column('integer')
  version: number;

  @Column('timestamptz', { name: 'created_at' })
  createdAt: Date;

  @Column('timestamptz', { name: 'updated_at' })
  updatedAt: Date;

  @Column('timestamptz', { name: 'started_at', nullable: true })
  startedAt: Date | null;

  @Column('timestamptz', { name: 'completed_at', nullable: true })
  completedAt: Date | null;
}

/** The state of a task that has not run: for new tasks and copies. */
export function notYetRun(
  now: Date,
): Pick<
  TaskEntity,
  | 'status'
  | 'result'
  | 'error'
  | 'progress'
  | 'attempt'
  | 'executionId'
  | 'version'
  | 'createdAt'
  | 'updatedAt'
  | 'startedAt'
  | 'completedAt'
> {
  return {
    status: 'pending',
    result: null,
    error: null,
    progress: 0,
    attempt: 0,
    executionId: null,
    version: 1,
    createdAt: now,
    updatedAt: now,
    startedAt: null,
    completedAt: null,
  };
}
