import { Inject, Injectable } from '@nestjs/common';
import { deletedCount, Retention } from '../platform/database/retention';
import { DataSource, EntityManager, Repository } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { returned } from '../platform/database/returned-rows';
import { TaskEntity, TaskStatus } from './entities/task.entity';

export interface TaskListFilter {
  /** Undefined: every owner's (admin). */
  userId?: string;
  status?: TaskStatus;
  rootOnly: boolean;
  parentId?: string;
  limit: number;
  offset: number;
  /** Keyset paging: the rows after this one in the list's order (then `offset` is not used). */
  after?: TaskCursor;
}

/** A row's place in the list's order: newest first by creation (to the millisecond), then id. */
export interface TaskCursor {
  createdAt: Date;
  id: string;
}

/** The list's order, to the millisecond so a cursor (a JS Date) names a place in it exactly. */
const LIST_ORDER = "date_trunc('milliseconds', t.created_at)";

export type TaskChanges = Partial<
  Pick<
    TaskEntity,
    'name' | 'priority' | 'inputs' | 'params' | 'schemas' | 'dependencies' | 'status' | 'result' | 'error' | 'progress'
  >
>;

/** tasks: the task-tree rows. Small named queries; the TypeORM repository stays inside. */
@Injectable()
export class TaskRepository {
  private readonly repo: Repository<TaskEntity>;

  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    retention: Retention,
  ) {
    this.repo = dataSource.getRepository(TaskEntity);
    // Whole trees only, once their root has ended and nothing runs them (executions cascade).
    retention.register({
      kind: 'task_trees',
      setting: 'taskTreeDays',
      prune: (cutoff, batch) =>
        deletedCount(
          dataSource,
          `DELETE FROM tasks WHERE root_id IN (
             SELECT r.id FROM tasks r
             WHERE r.parent_id IS NULL AND r.status IN ('completed', 'failed', 'cancelled')
               AND COALESCE(r.completed_at, r.updated_at) < $1
               AND NOT EXISTS (SELECT 1 FROM task_executions e WHERE e.root_id = r.id AND e.status = 'running')
             LIMIT $2)`,
          [cutoff, Math.max(1, Math.floor(batch / 10))],
        ),
    });
  }

  transaction<T>(work: (tx: TaskTransaction) => Promise<T>): Promise<T> {
    return this.dataSource.transaction((manager) => work(new TaskTransaction(manager)));
  }

  /** How many task-tree tasks are in each status. */
  async countByStatus(): Promise<Map<string, number>> {
    const rows: { status: string; count: number }[] = await this.dataSource.query(
      `SELECT status, count(*)::int AS count FROM tasks GROUP BY status`,
    );
    return new Map(rows.map((row) => [row.status, row.count]));
  }

  findById(id: string): Promise<TaskEntity | null> {
    return this.repo.findOne({ where: { id } });
  }

  findByIds(ids: string[]): Promise<TaskEntity[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.repo.createQueryBuilder('t').where('t.id IN (:...ids)', { ids }).getMany();
  }

  /** Every task of the tree, parents before children. */
  tree(rootId: string): Promise<TaskEntity[]> {
    return this.repo.find({ where: { rootId }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  children(parentId: string): Promise<TaskEntity[]> {
    return this.repo.find({ where: { parentId }, order: { priority: 'ASC', createdAt: 'ASC', id: 'ASC' } });
  }

  /** A page of the filtered list, and how many rows the whole filtered list has. */
  async list(filter: TaskListFilter): Promise<{ rows: TaskEntity[]; total: number }> {
    const filtered = () => {
      const query = this.repo.createQueryBuilder('t');
      if (filter.userId !== undefined) query.andWhere('t.user_id = :userId', { userId: filter.userId });
      if (filter.status) query.andWhere('t.status = :status', { status: filter.status });
      if (filter.parentId) query.andWhere('t.parent_id = :parentId', { parentId: filter.parentId });
      else if (filter.rootOnly) query.andWhere('t.parent_id IS NULL');
      return query;
    };
    const page = filtered();
    if (filter.after) {
      page.andWhere(`(${LIST_ORDER}, t.id) < (:afterAt, :afterId)`, {
        afterAt: filter.after.createdAt,
        afterId: filter.after.id,
      });
    }
    const [rows, total] = await Promise.all([
      page
        .orderBy(LIST_ORDER, 'DESC')
        .addOrderBy('t.id', 'DESC')
        .offset(filter.after ? 0 : filter.offset)
        .limit(filter.limit)
        .getMany(),
      filtered().getCount(),
    ]);
    return { rows, total };
  }

  /** Which of these tasks have children. */
  async withChildren(ids: string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows: { parent_id: string }[] = await this.dataSource.query(
      `SELECT DISTINCT parent_id FROM tasks WHERE parent_id = ANY($1::uuid[])`,
      [ids],
    );
    return new Set(rows.map((row) => row.parent_id));
  }
}

/**
 * The task queries that run inside one transaction (create, update, delete, copy, cancel, execute).
 * Inside a transaction only these may be used: the embedded database serves one transaction at a
 * time, so a query on another connection would wait for this one forever.
 */
export class TaskTransaction {
  constructor(readonly manager: EntityManager) {}

  async insert(tasks: TaskEntity[]): Promise<void> {
    // Parents first (the parent_id foreign key), in chunks that stay under the bind-parameter limit.
    for (let i = 0; i < tasks.length; i += 1_000) {
      await this.manager.insert(TaskEntity, tasks.slice(i, i + 1_000) as QueryDeepPartialEntity<TaskEntity>[]);
    }
  }

  findByIds(ids: string[]): Promise<TaskEntity[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.manager.createQueryBuilder(TaskEntity, 't').where('t.id IN (:...ids)', { ids }).getMany();
  }

  tree(rootId: string): Promise<TaskEntity[]> {
    return this.manager.find(TaskEntity, { where: { rootId } });
  }

  /** The task, locked for this transaction. */
  lock(id: string): Promise<TaskEntity | null> {
    return this.manager.findOne(TaskEntity, { where: { id }, lock: { mode: 'pessimistic_write' } });
  }

  /** The task and every descendant (ids), the task first. */
  async subtreeIds(id: string): Promise<string[]> {
    const rows: { id: string }[] = await this.manager.query(
      `WITH RECURSIVE sub AS (
         SELECT id, 0 AS depth FROM tasks WHERE id = $1
         UNION ALL
         SELECT t.id, sub.depth + 1 FROM tasks t JOIN sub ON t.parent_id = sub.id
       ) SELECT id FROM sub ORDER BY depth`,
      [id],
    );
    return rows.map((row) => row.id);
  }

  /** Ids of tasks outside `except` that depend on any of `ids`. */
  async dependentsOf(ids: string[], except: string[] = []): Promise<{ id: string; name: string }[]> {
    if (ids.length === 0) return [];
    return this.manager.query(
      `SELECT t.id, t.name FROM tasks t
        WHERE EXISTS (SELECT 1 FROM unnest($1::uuid[]) AS d(id) WHERE t.dependencies @> jsonb_build_array(jsonb_build_object('id', d.id::text)))
          AND NOT (t.id = ANY($2::uuid[]))`,
      [ids, except],
    );
  }

  async statuses(ids: string[]): Promise<Map<string, TaskStatus>> {
    if (ids.length === 0) return new Map();
    const rows: { id: string; status: TaskStatus }[] = await this.manager.query(
      `SELECT id, status FROM tasks WHERE id = ANY($1::uuid[])`,
      [ids],
    );
    return new Map(rows.map((row) => [row.id, row.status]));
  }

  /** Applies the changes if the task still has `version`; false if another write came first. */
  async update(id: string, version: number, changes: TaskChanges): Promise<boolean> {
    const result = await this.manager
      .createQueryBuilder()
      .update(TaskEntity)
      .set({ ...(changes as QueryDeepPartialEntity<TaskEntity>), version: version + 1, updatedAt: new Date() })
      .where('id = :id AND version = :version', { id, version })
      .execute();
    return (result.affected ?? 0) > 0;
  }

  findById(id: string): Promise<TaskEntity | null> {
    return this.manager.findOne(TaskEntity, { where: { id } });
  }

  /** Deletes the tasks, children before parents. */
  async delete(idsParentsFirst: string[]): Promise<void> {
    for (const id of [...idsParentsFirst].reverse()) await this.manager.delete(TaskEntity, { id });
  }

  /**
   * Makes every task of the tree that is not completed pending again (a new execution runs the
   * failed, cancelled and never-run ones; completed results are kept).
   */
  async resetUnfinished(rootId: string): Promise<void> {
    await this.manager.query(
      `UPDATE tasks SET status = 'pending', result = NULL, error = NULL, progress = 0, started_at = NULL,
              completed_at = NULL, version = version + 1, updated_at = now()
        WHERE root_id = $1 AND status <> 'completed'
          AND NOT (status = 'pending' AND result IS NULL AND error IS NULL AND progress = 0
                   AND started_at IS NULL AND completed_at IS NULL)`,
      [rootId],
    );
  }

  /** Marks the unfinished tasks among `ids` cancelled; returns those it changed. */
  async cancel(ids: string[], reason: string): Promise<TaskEntity[]> {
    if (ids.length === 0) return [];
    const rows = returned<Record<string, unknown>>(
      await this.manager.query(
        `UPDATE tasks SET status = 'cancelled', error = $2, completed_at = now(), updated_at = now(), version = version + 1
        WHERE id = ANY($1::uuid[]) AND status IN ('pending', 'in_progress')
        RETURNING id, root_id, status, progress, error`,
        [ids, reason],
      ),
    );
    return rows.map((row) =>
      Object.assign(new TaskEntity(), {
        id: row.id,
        rootId: row.root_id,
        status: row.status,
        progress: Number(row.progress),
        error: row.error,
        result: null,
      }),
    );
  }
}
