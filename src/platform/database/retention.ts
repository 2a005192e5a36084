import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { Metrics } from '../metrics/metrics';

/** What a feature keeps for a while and then lets go of: rows older than its setting's days (0: forever). */
export interface RetentionRule {
  /** The metric label and log name: the table or kind of record. */
  kind: string;
  /** Which RETENTION setting gives the days. */
  setting: Exclude<keyof AppConfig['retention'], 'intervalSeconds'>;
  /** Deletes at most `batch` rows from before `cutoff` that are done with; how many it deleted. */
  prune(cutoff: Date, batch: number): Promise<number>;
}

/** Rows deleted per statement: short statements, so pruning never holds locks for long. */
const BATCH = 5_000;
/** After start, the first pass waits this long (or the interval, if shorter): not during boot. */
const FIRST_PASS_DELAY_MS = 60_000;
/** Any fixed number, the same on every replica: the advisory lock only one pruner holds. */
const LOCK_KEY = 0x5b_0a_7d_01;

/**
 * Retention: each feature registers what it keeps and for how long (its own rule, its own SQL),
 * and this prunes them every RETENTION_INTERVAL_SECONDS, in batches, on one replica at a time - the
 * one holding a PostgreSQL advisory lock; the others skip the pass. Rows removed are counted in
 * `switchboard_retention_pruned_rows_total{kind}` and logged.
 */
@Injectable()
export class Retention implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('Retention');
  private readonly rules: RetentionRule[] = [];
  private timer?: NodeJS.Timeout;
  private running?: Promise<unknown>;
  private stopped = false;

  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    private readonly config: AppConfig,
    private readonly metrics: Metrics,
  ) {}

  register(rule: RetentionRule): void {
    this.rules.push(rule);
  }

  onApplicationBootstrap(): void {
    const intervalMs = this.config.retention.intervalSeconds * 1000;
    if (intervalMs === 0) return;
    const next = (delayMs: number) => {
      this.timer = setTimeout(() => {
        this.running = this.pruneNow()
          .catch((error: Error) => this.logger.warn(`Pruning failed: ${error.message}`))
          .finally(() => !this.stopped && next(intervalMs));
      }, delayMs);
      this.timer.unref();
    };
    next(Math.min(FIRST_PASS_DELAY_MS, intervalMs));
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  /**
   * One pass of every rule now: rows removed by kind, or undefined when another replica is pruning.
   * A rule that fails is logged and the others still run.
   */
  async pruneNow(now = new Date()): Promise<Record<string, number> | undefined> {
    const lock = this.dataSource.createQueryRunner();
    await lock.connect();
    try {
      const [{ locked }] = (await lock.query('SELECT pg_try_advisory_lock($1) AS locked', [LOCK_KEY])) as {
        locked: boolean;
      }[];
      if (!locked) return undefined;
      try {
        return await this.pass(now);
      } finally {
        await lock.query('SELECT pg_advisory_unlock($1)', [LOCK_KEY]);
      }
    } finally {
      await lock.release();
    }
  }

  private async pass(now: Date): Promise<Record<string, number>> {
    const removed: Record<string, number> = {};
    for (const rule of this.rules) {
      const days = this.config.retention[rule.setting];
      if (days <= 0) continue;
      const cutoff = new Date(now.getTime() - days * 86_400_000);
      let total = 0;
      try {
        for (let deleted = -1; deleted !== 0 && !this.stopped;) {
          deleted = await rule.prune(cutoff, BATCH);
          total += deleted;
          this.metrics.retentionPrunedRows.inc({ kind: rule.kind }, deleted);
        }
      } catch (error) {
        this.logger.warn(`Could not prune ${rule.kind}: ${(error as Error).message}`);
      }
      removed[rule.kind] = total;
    }
    const pruned = Object.entries(removed).filter(([, count]) => count > 0);
    if (pruned.length) {
      this.logger.log(`Pruned ${pruned.map(([kind, count]) => `${count} ${kind}`).join(', ')} past their retention`);
    }
    return removed;
  }
}

/** Runs a DELETE; how many rows it removed. */
export async function deletedCount(dataSource: DataSource, sql: string, params: unknown[]): Promise<number> {
  const [, count] = await dataSource.query<[unknown, number]>(sql, params);
  return count ?? 0;
}

/**
 * Deletes at most `batch` rows of `table` matching `where` (over `$1`, the cutoff); how many.
 * `where` is the owning feature's own condition: what of its rows is done with.
 */
export function deleteBatch(dataSource: DataSource, table: string, where: string, cutoff: Date, batch: number) {
  return deletedCount(
    dataSource,
    `DELETE FROM ${table} WHERE id IN (SELECT id FROM ${table} WHERE ${where} LIMIT $2)`,
    [cutoff, batch],
  );
}
