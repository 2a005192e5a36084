import { Inject, Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { ExecutionStatus, TaskExecutionEntity } from '../entities/task-execution.entity';
import { TaskEntity, TaskStatus } from '../entities/task.entity';
import { returned } from '../../platform/database/returned-rows';

/**
 * The engine's queries: execution leases (claimed with FOR UPDATE SKIP LOCKED, renewed by
 * heartbeat) and task state changes fenced so a task attempt completes at most once.
 */
@Injectable()
export class ExecutionRepository {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  /** Inside the execute transaction: a new running execution, leased to `owner` (or to nobody). */
  async insert(manager: EntityManager, execution: TaskExecutionEntity): Promise<void> {
    await manager.insert(TaskExecutionEntity, execution);
  }

  /** The running execution of a tree, if any. */
  running(manager: EntityManager | undefined, rootId: string): Promise<TaskExecutionEntity | null> {
    return (manager ?? this.dataSource.manager).findOne(TaskExecutionEntity, { where: { rootId, status: 'running' } });
  }

  /** Takes up to `limit` running executions nobody holds a live lease on. */
  async claim(owner: string, leaseMs: number, limit: number): Promise<TaskExecutionEntity[]> {
    if (limit < 1) return [];
    const rows: { id: string }[] = returned(
      await this.dataSource.query(
        `UPDATE task_executions e
          SET lease_owner = $1, lease_expires_at = now() + make_interval(secs => $2::double precision / 1000), updated_at = now()
        WHERE e.id IN (
          SELECT id FROM task_executions
           WHERE status = 'running' AND (lease_expires_at IS NULL OR lease_expires_at < now())
           ORDER BY created_at
           LIMIT $3
           FOR UPDATE SKIP LOCKED)
        RETURNING e.id`,
        [owner, leaseMs, limit],
      ),
    );
    if (rows.length === 0) return [];
    return this.dataSource.manager
      .createQueryBuilder(TaskExecutionEntity, 'e')
      .where('e.id IN (:...ids)', { ids: rows.map((row) => row.id) })
      .getMany();
  }

  /** Extends the lease; false if it is no longer ours (expired and taken, or finished). */
  async renew(id: string, owner: string, leaseMs: number): Promise<boolean> {
    const rows: unknown[] = returned(
      await this.dataSource.query(
        `UPDATE task_executions SET lease_expires_at = now() + make_interval(secs => $3::double precision / 1000)
        WHERE id = $1 AND lease_owner = $2 AND status = 'running' RETURNING id`,
        [id, owner, leaseMs],
      ),
    );
    return rows.length > 0;
  }

  /** Gives the lease up so another replica takes the execution at once (graceful shutdown). */
  async release(id: string, owner: string): Promise<void> {
    await this.dataSource.query(
      `UPDATE task_executions SET lease_owner = NULL, lease_expires_at = NULL, updated_at = now()
        WHERE id = $1 AND lease_owner = $2 AND status = 'running'`,
      [id, owner],
    );
  }

  async finish(id: string, owner: string, status: Exclude<ExecutionStatus, 'running'>): Promise<boolean> {
    const rows: unknown[] = returned(
      await this.dataSource.query(
        `UPDATE task_executions SET status = $3, finished_at = now(), updated_at = now(), lease_owner = NULL, lease_expires_at = NULL
        WHERE id = $1 AND lease_owner = $2 AND status = 'running' RETURNING id`,
        [id, owner, status],
      ),
    );
    return rows.length > 0;
  }

  /** Tasks an earlier holder of the lease left in progress go back to pending (they run again). */
  async requeueInProgress(rootId: string): Promise<void> {
    await this.dataSource.query(
      `UPDATE tasks SET status = 'pending', progress = 0, started_at = NULL, updated_at = now(), version = version + 1
        WHERE root_id = $1 AND status = 'in_progress'`,
      [rootId],
    );
  }

  task(id: string): Promise<TaskEntity | null> {
    return this.dataSource.manager.findOne(TaskEntity, { where: { id } });
  }

  tree(rootId: string): Promise<TaskEntity[]> {
    return this.dataSource.manager.find(TaskEntity, { where: { rootId } });
  }

  /**
   * Starts an attempt: pending → in_progress, only while `owner` holds the execution's lease.
   * Returns the attempt number, or null if the task is no longer pending or the lease is lost.
   */
  async start(
    taskId: string,
    executionId: string,
    owner: string,
  ): Promise<{ attempt: number; startedAt: Date } | null> {
    const rows: { attempt: number; started_at: Date }[] = returned(
      await this.dataSource.query(
        `UPDATE tasks SET status = 'in_progress', attempt = attempt + 1, execution_id = $2, started_at = now(),
              updated_at = now(), progress = 0, result = NULL, error = NULL, completed_at = NULL, version = version + 1
        WHERE id = $1 AND status = 'pending'
          AND EXISTS (SELECT 1 FROM task_executions e WHERE e.id = $2 AND e.lease_owner = $3 AND e.status = 'running')
        RETURNING attempt, started_at`,
        [taskId, executionId, owner],
      ),
    );
    return rows[0] ? { attempt: rows[0].attempt, startedAt: rows[0].started_at } : null;
  }

  /** Ends an attempt; false if the attempt is no longer current (cancelled, or taken over). */
  async complete(
    taskId: string,
    attempt: number,
    outcome: { status: TaskStatus; result: unknown; error: string | null },
  ): Promise<{ completedAt: Date; progress: number } | null> {
    const rows: { completed_at: Date; progress: number }[] = returned(
      await this.dataSource.query(
        `UPDATE tasks SET status = $3, result = $4::jsonb, error = $5, completed_at = now(), updated_at = now(),
              progress = CASE WHEN $3 = 'completed' THEN 1 ELSE progress END, version = version + 1
        WHERE id = $1 AND attempt = $2 AND status = 'in_progress'
        RETURNING completed_at, progress`,
        [
          taskId,
          attempt,
          outcome.status,
          outcome.result === undefined ? null : JSON.stringify(outcome.result),
          outcome.error,
        ],
      ),
    );
    return rows[0] ? { completedAt: rows[0].completed_at, progress: Number(rows[0].progress) } : null;
  }

  /** Fails a task that never started (a required dependency failed), under the lease. */
  async failPending(taskId: string, executionId: string, owner: string, error: string): Promise<boolean> {
    const rows: unknown[] = returned(
      await this.dataSource.query(
        `UPDATE tasks SET status = 'failed', error = $4, completed_at = now(), updated_at = now(), version = version + 1
        WHERE id = $1 AND status = 'pending'
          AND EXISTS (SELECT 1 FROM task_executions e WHERE e.id = $2 AND e.lease_owner = $3 AND e.status = 'running')
        RETURNING id`,
        [taskId, executionId, owner, error],
      ),
    );
    return rows.length > 0;
  }

  async progress(taskId: string, attempt: number, progress: number): Promise<void> {
    await this.dataSource.query(
      `UPDATE tasks SET progress = $3, updated_at = now() WHERE id = $1 AND attempt = $2 AND status = 'in_progress'`,
      [taskId, attempt, progress],
    );
  }

  /** A task's status as stored now. */
  async statusOf(taskId: string): Promise<Pick<TaskEntity, 'status' | 'error' | 'progress'> | null> {
    return this.dataSource.manager.findOne(TaskEntity, {
      where: { id: taskId },
      select: { status: true, error: true, progress: true },
    });
  }
}
