import { Inject, Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource, Repository } from 'typeorm';
import { jsonRows } from '../../platform/database/json-rows';
import { WriteBehindQueue } from '../../platform/database/write-behind-queue';
import { deleteBatch, Retention } from '../../platform/database/retention';
import { WriteBehindQueues } from '../../platform/database/write-behind-queues';
import { Metrics } from '../../platform/metrics/metrics';
import { RoutingDecisionEntity, RoutingOutcome } from './routing-decision.entity';

const MAX_REQUEST_TEXT = 500;
const MAX_ANSWER_CHARS = 2000;

export type RoutingRecord = Omit<RoutingDecisionEntity, 'id' | 'createdAt' | 'requestText'> & { requestText: string };

/**
 * Every routing decision, in Postgres. Writing the log never delays an answer: decisions are
 * queued and written behind it, in batches (WriteBehindQueue); reads here first wait for what this
 * replica queued.
 */
@Injectable()
export class RoutingLog {
  private readonly logger = new Logger('RoutingLog');
  private readonly decisions: Repository<RoutingDecisionEntity>;
  private readonly queue: WriteBehindQueue<RoutingDecisionEntity>;

  constructor(
    @Inject(DataSource) dataSource: DataSource,
    private readonly metrics: Metrics,
    queues: WriteBehindQueues,
    retention: Retention,
  ) {
    this.decisions = dataSource.getRepository(RoutingDecisionEntity);
    retention.register({
      kind: 'routing_decisions',
      setting: 'routingLogDays',
      prune: (cutoff, batch) => deleteBatch(dataSource, 'routing_decisions', 'created_at < $1', cutoff, batch),
    });
    this.queue = queues.create<RoutingDecisionEntity>({
      name: 'routing_log',
      write: (rows) => this.insert(rows),
    });
  }

  /** Queues the decision; resolves at once unless the queue is full (a database down for long). */
  record(decision: RoutingRecord): Promise<void> {
    this.metrics.routingDecisions.inc({
      agent: decision.agents[0] ?? 'none',
      outcome: decision.outcome,
      router: decision.router,
    });
    const row: RoutingDecisionEntity = {
      ...decision,
      id: randomUUID(),
      createdAt: new Date(),
      requestText: truncate(decision.requestText),
      answerText: decision.answerText === null ? null : truncate(decision.answerText, MAX_ANSWER_CHARS),
      confidence: decision.confidence === null ? null : Math.round(decision.confidence * 1000) / 1000,
    };
    return this.queue
      .add(row)
      .catch((error: Error) => this.logger.warn(`Could not record a routing decision: ${error.message}`));
  }

  /** One statement for the batch, its rows in one JSON parameter (see jsonRows). */
  private async insert(rows: RoutingDecisionEntity[]): Promise<void> {
    await this.decisions.query(
      `INSERT INTO routing_decisions (id, created_at, owner, context_id, task_id, request_text, agents, confidence,
                                      reasoning, candidates, answer_text, router, duration_ms, outcome, error_code)
       SELECT "id", "createdAt", "owner", "contextId", "taskId", "requestText", "agents", "confidence",
              "reasoning", "candidates", "answerText", "router", "durationMs", "outcome", "errorCode"
       FROM json_to_recordset($1::json) AS r("id" uuid, "createdAt" timestamptz, "owner" text, "contextId" text,
         "taskId" text, "requestText" text, "agents" jsonb, "confidence" real, "reasoning" text, "candidates" jsonb,
         "answerText" text, "router" text, "durationMs" int, "outcome" text, "errorCode" text)`,
      [jsonRows(rows)],
    );
  }

  /**
   * A page of the log, newest first, after `cursor` (the `next_cursor` of the page before): keyset
   * paging on (created_at, id), so pages hold steady while new decisions arrive.
   */
  async page(filter: RoutingLogFilter): Promise<{ rows: RoutingDecisionEntity[]; nextCursor: string | null }> {
    await this.queue.flushed();
    const query = this.decisions.createQueryBuilder('d');
    if (filter.agent) query.andWhere('d.agents @> :agent::jsonb', { agent: JSON.stringify([filter.agent]) });
    if (filter.contextId) query.andWhere('d.context_id = :contextId', { contextId: filter.contextId });
    if (filter.outcome) query.andWhere('d.outcome = :outcome', { outcome: filter.outcome });
    if (filter.since) query.andWhere('d.created_at >= :since', { since: filter.since });
    if (filter.until) query.andWhere('d.created_at < :until', { until: filter.until });
    if (filter.minConfidence !== undefined)
      query.andWhere('d.confidence >= :minConfidence', { minConfidence: filter.minConfidence });
    if (filter.maxConfidence !== undefined)
      query.andWhere('d.confidence <= :maxConfidence', { maxConfidence: filter.maxConfidence });
    if (filter.after)
      query.andWhere('(d.created_at, d.id) < (:afterAt, :afterId)', {
        afterAt: filter.after.createdAt,
        afterId: filter.after.id,
      });
    const rows = await query
      .orderBy('d.created_at', 'DESC')
      .addOrderBy('d.id', 'DESC')
      .limit(filter.limit + 1)
      .getMany();
    const more = rows.length > filter.limit;
    const page = more ? rows.slice(0, filter.limit) : rows;
    const last = page.at(-1);
    return { rows: page, nextCursor: more && last ? encodeCursor(last) : null };
  }

  /** Newest first. */
  async recent(owner: string, contextId: string, limit = 50): Promise<RoutingDecisionEntity[]> {
    await this.queue.flushed();
    return this.decisions.find({ where: { owner, contextId }, order: { createdAt: 'DESC' }, take: limit });
  }
}

export interface RoutingLogFilter {
  agent?: string;
  contextId?: string;
  outcome?: RoutingOutcome;
  since?: Date;
  until?: Date;
  minConfidence?: number;
  maxConfidence?: number;
  /** Decisions older than this one (a decoded cursor). */
  after?: { createdAt: Date; id: string };
  limit: number;
}

function encodeCursor(row: RoutingDecisionEntity): string {
  return Buffer.from(`${row.createdAt.toISOString()}|${row.id}`).toString('base64url');
}

/** The position a cursor names, or undefined when it is not one of ours. */
export function decodeCursor(cursor: string): { createdAt: Date; id: string } | undefined {
  const [at, id, extra] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  const createdAt = new Date(at ?? '');
  const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
  if (extra !== undefined || Number.isNaN(createdAt.getTime()) || !uuid.test(id ?? '')) return undefined;
  return { createdAt, id };
}

function truncate(text: string, max = MAX_REQUEST_TEXT): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
