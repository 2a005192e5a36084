import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { Metrics } from '../metrics/metrics';
import { WriteBehindObserver, WriteBehindOptions, WriteBehindQueue } from './write-behind-queue';

/** Shutdown may take this long to write what the queues hold before the database closes. */
const CLOSE_DEADLINE_MS = 10_000;

/**
 * Every write-behind queue of the process: features make theirs here, metrics see their depth,
 * and the database module writes them out (`closeAll`) just before it closes the connection -
 * after the HTTP and gRPC drain and every other module's shutdown work that may still add rows.
 */
@Injectable()
export class WriteBehindQueues {
  private readonly queues: WriteBehindQueue<unknown>[] = [];
  private readonly observer: WriteBehindObserver;

  private readonly delayMs: number;

  constructor(
    private readonly metrics: Metrics,
    config: AppConfig,
  ) {
    this.delayMs = config.database.writeBehindDelayMs;
    this.observer = {
      written: (queue, items) => metrics.writeBehindRows.inc({ queue, outcome: 'written' }, items),
      dropped: (queue, items) => metrics.writeBehindRows.inc({ queue, outcome: 'dropped' }, items),
      failed: (queue) => metrics.writeBehindFailures.inc({ queue }),
    };
  }

  create<T>(options: WriteBehindOptions<T>): WriteBehindQueue<T> {
    const queue = new WriteBehindQueue({ delayMs: this.delayMs, ...options }, this.observer);
    this.queues.push(queue as WriteBehindQueue<unknown>);
    this.metrics.watchWriteBehind(queue.name, () => queue.depth);
    return queue;
  }

  async closeAll(deadlineMs = CLOSE_DEADLINE_MS): Promise<void> {
    await Promise.all(this.queues.map((queue) => queue.close(deadlineMs)));
  }
}
