import { Inject, Injectable } from '@nestjs/common';
import { Brackets, DataSource, Repository } from 'typeorm';
import { A2aTaskEntity } from './entities/a2a-task.entity';

export interface TaskStateRow {
  agentId: string;
  owner: string;
  taskId: string;
  contextId: string;
  state: string;
  at: Date;
  /** ProtoJSON of the task, when it has finished. */
  finalTask?: unknown;
}

export interface TaskPageQuery {
  /** Unset: the owner's tasks of every agent. */
  agentId?: string;
  owner: string;
  contextId?: string;
  state?: string;
  updatedAfter?: Date;
  limit: number;
  after?: { updatedAt: Date; taskId: string };
}

/** a2a_tasks: the listing index and archive of A2A tasks. */
@Injectable()
export class A2aTaskRepository {
  private readonly repo: Repository<A2aTaskEntity>;

  constructor(@Inject(DataSource) dataSource: DataSource) {
    this.repo = dataSource.getRepository(A2aTaskEntity);
  }

  /**
   * Inserts or advances a task's row. It never moves backwards: once a final task is stored only
   * another final snapshot (the same task with more of its output) may replace it, and a late
   * write from another replica cannot put an older state back.
   */
  async recordState(row: TaskStateRow): Promise<void> {
    await this.repo.query(
      `INSERT INTO a2a_tasks (agent_id, owner, task_id, context_id, state, created_at, updated_at, final_task)
       VALUES ($1, $2, $3, $4, $5, $6, $6, $7)
       ON CONFLICT (agent_id, owner, task_id) DO UPDATE
         SET state = EXCLUDED.state, context_id = EXCLUDED.context_id,
             updated_at = GREATEST(a2a_tasks.updated_at, EXCLUDED.updated_at), final_task = EXCLUDED.final_task
         WHERE (a2a_tasks.final_task IS NULL OR EXCLUDED.final_task IS NOT NULL)
           AND a2a_tasks.updated_at <= EXCLUDED.updated_at`,
      [row.agentId, row.owner, row.taskId, row.contextId, row.state, row.at, row.finalTask ?? null],
    );
  }

  /** Every task row of an agent that is being removed. */
  async removeAgent(agentId: string): Promise<void> {
    await this.repo.delete({ agentId });
  }

  /** Every agent's and owner's rows for a task id (internal inspection; usually one). */
  /** How many task records are in each state (A2A state names as stored). */
  async countByState(): Promise<Map<string, number>> {
    const rows: { state: string; count: number }[] = await this.repo.query(
      `SELECT state, count(*)::int AS count FROM a2a_tasks GROUP BY state`,
    );
    return new Map(rows.map((row) => [row.state, row.count]));
  }

  findByTaskId(taskId: string): Promise<A2aTaskEntity[]> {
    return this.repo.find({ where: { taskId }, order: { updatedAt: 'DESC' } });
  }

  async remove(agentId: string, owner: string, taskId: string): Promise<void> {
    await this.repo.delete({ agentId, owner, taskId });
  }

  async findFinalTask(agentId: string, owner: string, taskId: string): Promise<unknown> {
    const row = await this.repo.findOne({ where: { agentId, owner, taskId }, select: ['finalTask'] });
    return row?.finalTask ?? undefined;
  }

  /** Newest first, keyset-paged on (updated_at, task_id); also returns the total matching. */
  async page(query: TaskPageQuery): Promise<{ rows: A2aTaskEntity[]; total: number }> {
    const qb = this.repo.createQueryBuilder('t').where('t.owner = :owner', { owner: query.owner });
    if (query.agentId) qb.andWhere('t.agent_id = :agentId', { agentId: query.agentId });
    if (query.contextId) qb.andWhere('t.context_id = :contextId', { contextId: query.contextId });
    if (query.state) qb.andWhere('t.state = :state', { state: query.state });
    if (query.updatedAfter) qb.andWhere('t.updated_at > :after', { after: query.updatedAfter });
    const total = await qb.getCount();
    const after = query.after;
    if (after) {
      qb.andWhere(
        new Brackets((b) =>
          b
            .where('t.updated_at < :cursorAt', { cursorAt: after.updatedAt })
            .orWhere('t.updated_at = :cursorAt AND t.task_id < :cursorId', { cursorId: after.taskId }),
        ),
      );
    }
    const rows = await qb.orderBy('t.updated_at', 'DESC').addOrderBy('t.task_id', 'DESC').limit(query.limit).getMany();
    return { rows, total };
  }
}
