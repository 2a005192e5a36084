import { Inject, Injectable } from '@nestjs/common';
import { Brackets, DataSource, Repository } from 'typeorm';
import { WriteBehindQueue } from '../../platform/database/write-behind-queue';
import { WriteBehindQueues } from '../../platform/database/write-behind-queues';
import { deletedCount, Retention } from '../../platform/database/retention';
import { wellFormed } from '../../platform/database/json-rows';
import { KeyValueStore } from '../../platform/kv/key-value-store';
import { A2aTaskEntity } from './entities/a2a-task.entity';
import { taskRecordKey, UNINDEXED_TASKS } from './task-record';

export interface TaskStateRow {
  agentId: string;
  owner: string;
  taskId: string;
  contextId: string;
  state: string;
  at: Date;
  /** ProtoJSON of the task, when it has finished. */
  finalTask?: unknown;
  /** `finalTask` as JSON text, when the writer has it already (its record holds the same text). */
  finalTaskText?: string;
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

/** A task row as queued: `createdAt` is when the first of its coalesced states was recorded. */
type QueuedRow = TaskStateRow & { createdAt: Date };

/**
 * a2a_tasks: the listing index and archive of A2A tasks. Task states are not written on the
 * answer's path: `recordState` queues them (WriteBehindQueue), and they reach PostgreSQL a few
 * milliseconds later, many rows per statement, a task's successive states coalesced into one
 * row. The live record in the key-value store outlives that window. Reads and deletes here first
 * wait for what this replica queued, so a replica always reads its own writes (a read waits a few
 * seconds at most, then is refused as unavailable: WriteBehindQueue.readable).
 */
@Injectable()
export class A2aTaskRepository {
  private readonly repo: Repository<A2aTaskEntity>;
  private readonly queue: WriteBehindQueue<QueuedRow>;

  constructor(
    @Inject(DataSource) dataSource: DataSource,
    queues: WriteBehindQueues,
    private readonly kv: KeyValueStore,
    retention: Retention,
  ) {
    this.repo = dataSource.getRepository(A2aTaskEntity);
    // A task still running may have a live record (A2A_TASK_TTL_SECONDS, at most 30 days): only
    // finished ones, or ones no record can outlive, go.
    retention.register({
      kind: 'a2a_tasks',
      setting: 'a2aTaskDays',
      prune: (cutoff, batch) =>
        deletedCount(
          dataSource,
          `DELETE FROM a2a_tasks WHERE (agent_id, owner, task_id) IN (
             SELECT agent_id, owner, task_id FROM a2a_tasks
             WHERE updated_at < $1 AND (final_task IS NOT NULL OR updated_at < now() - interval '30 days')
             LIMIT $2)`,
          [cutoff, batch],
        ),
    });
    this.queue = queues.create<QueuedRow>({
      name: 'a2a_tasks',
      key: (row) => `${row.agentId}\n${row.owner}\n${row.taskId}`,
      merge: (pending, later) => ({ ...(advances(pending, later) ? later : pending), createdAt: pending.createdAt }),
      write: (rows) => this.upsert(rows),
      // The rows are in (or can never be): their records are no longer owed an index.
      settled: (rows) =>
        this.kv.unflag(
          UNINDEXED_TASKS,
          rows.map((r) => ({ key: taskRecordKey(r.agentId, r.owner, r.taskId), upTo: r.at.getTime() })),
        ),
    });
  }

  /**
   * Queues a task's state for its row. A row never moves backwards: once a final task is stored
   * only another final snapshot (the same task with more of its output) may replace it, and a
   * late write from another replica cannot put an older state back.
   */
  recordState(row: TaskStateRow): Promise<void> {
    return this.queue.add({ ...row, createdAt: row.at });
  }

  /** Resolves once every state queued so far is in PostgreSQL. */
  flushed(): Promise<void> {
    return this.queue.flushed();
  }

  /**
   * One statement for the batch, its rows in one JSON parameter: eight array parameters made the
   * driver write every task's JSON as an element of an array literal (each quote escaped) and the
   * server read it back out of one, which cost more than the row (measured: 25 % less CPU per row).
   */
  private async upsert(rows: QueuedRow[]): Promise<void> {
    await this.repo.query(
      `INSERT INTO a2a_tasks (agent_id, owner, task_id, context_id, state, created_at, updated_at, final_task)
       SELECT a, o, t, c, s, ca, ua, f FROM json_to_recordset($1::json)
         AS r(a text, o text, t text, c text, s text, ca timestamptz, ua timestamptz, f jsonb)
       ON CONFLICT (agent_id, owner, task_id) DO UPDATE
         SET state = EXCLUDED.state, context_id = EXCLUDED.context_id,
             updated_at = GREATEST(a2a_tasks.updated_at, EXCLUDED.updated_at), final_task = EXCLUDED.final_task
         WHERE (a2a_tasks.final_task IS NULL OR EXCLUDED.final_task IS NOT NULL)
           AND a2a_tasks.updated_at <= EXCLUDED.updated_at`,
      [rowsJson(rows)],
    );
  }

  /** Every task row of an agent that is being removed. */
  async removeAgent(agentId: string): Promise<void> {
    await this.queue.flushed();
    await this.repo.delete({ agentId });
  }

  /** How many task records are in each state (A2A state names as stored). */
  async countByState(): Promise<Map<string, number>> {
    await this.queue.readable();
    const rows: { state: string; count: number }[] = await this.repo.query(
      `SELECT state, count(*)::int AS count FROM a2a_tasks GROUP BY state`,
    );
    return new Map(rows.map((row) => [row.state, row.count]));
  }

  /** Every agent's and owner's rows for a task id (internal inspection; usually one). */
  async findByTaskId(taskId: string): Promise<A2aTaskEntity[]> {
    await this.queue.readable();
    return this.repo.find({ where: { taskId }, order: { updatedAt: 'DESC' } });
  }

  async remove(agentId: string, owner: string, taskId: string): Promise<void> {
    await this.queue.flushed();
    await this.repo.delete({ agentId, owner, taskId });
  }

  /**
   * The archived task, once what this replica queued is written: a finished task's record may be
   * gone from an in-process store seconds after it was written (TaskStores), before its row if the
   * database is slow.
   */
  async findFinalTask(agentId: string, owner: string, taskId: string): Promise<unknown> {
    await this.queue.readable();
    const row = await this.repo.findOne({ where: { agentId, owner, taskId }, select: ['finalTask'] });
    return fromArchive(row?.finalTask ?? undefined);
  }

  /** Newest first, keyset-paged on (updated_at, task_id); also returns the total matching. */
  async page(query: TaskPageQuery): Promise<{ rows: A2aTaskEntity[]; total: number }> {
    await this.queue.readable();
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

/** A member no task has: the task it holds, as JSON text, is what was archived. */
const ARCHIVED_AS_TEXT = '$switchboard_json';
/** An escaped NUL or surrogate in JSON.stringify's output (it escapes only unpaired surrogates). */
const UNSTORABLE_ESCAPE = /\\u(?:0000|d[89a-f])/i;

/**
 * The JSON text of an archived task. jsonb cannot hold a NUL character or an unpaired surrogate,
 * which an agent's output may have: such a task is archived as its JSON text inside a one-member
 * object (which jsonb takes, the escapes being plain characters there), so nothing is lost.
 */
function archiveText(task: unknown, known?: string): string {
  const text = known ?? JSON.stringify(task);
  return UNSTORABLE_ESCAPE.test(text) ? JSON.stringify({ [ARCHIVED_AS_TEXT]: text }) : text;
}

/**
 * The rows as one JSON array, each task's archive text spliced in as it is (not escaped into a
 * string). Text columns are made well-formed first, as the driver's UTF-8 encoding made them: an
 * unpaired surrogate becomes U+FFFD rather than an escape the server refuses.
 */
function rowsJson(rows: QueuedRow[]): string {
  const text = (value: string) => JSON.stringify(wellFormed(value));
  const objects = rows.map(
    (r) =>
      `{"a":${text(r.agentId)},"o":${text(r.owner)},"t":${text(r.taskId)},"c":${text(r.contextId)},` +
      `"s":${text(r.state)},"ca":"${r.createdAt.toISOString()}","ua":"${r.at.toISOString()}",` +
      `"f":${r.finalTask === undefined ? 'null' : archiveText(r.finalTask, r.finalTaskText)}}`,
  );
  return `[${objects.join(',')}]`;
}

/** An archived task as it was written (see archiveText). */
export function fromArchive(stored: unknown): unknown {
  const text = (stored as Record<string, unknown> | null | undefined)?.[ARCHIVED_AS_TEXT];
  return typeof text === 'string' ? JSON.parse(text) : stored;
}

/** Whether `later` may replace `pending`, by the rule the upsert applies: final wins, then the later time. */
function advances(pending: TaskStateRow, later: TaskStateRow): boolean {
  if (pending.finalTask !== undefined && later.finalTask === undefined) return false;
  return later.at.getTime() >= pending.at.getTime();
}
