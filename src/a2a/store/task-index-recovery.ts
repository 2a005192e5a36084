import { Task } from '@a2a-js/sdk';
import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { KeyValueStore } from '../../platform/kv/key-value-store';
import { A2aTaskRepository } from './a2a-task.repository';
import { indexRowOf, TaskPersistenceRecord, UNINDEXED_TASKS } from './task-record';

/** A replica indexes a record within milliseconds of writing it: a flag older than this was left by one that stopped. */
const GRACE_MS = 30_000;
const INTERVAL_MS = 60_000;
const BATCH = 500;

/**
 * Indexes in PostgreSQL the task records a replica wrote but stopped before indexing (killed in the
 * few milliseconds its rows wait in the write-behind queue, or shut down with the database gone):
 * every write that owes a row flags its record in the key-value store (UNINDEXED_TASKS), and the
 * flag is cleared once the row is written. Every replica looks for old flags once a minute and
 * queues the rows they stand for, from the records themselves; two replicas doing it at once
 * write the same rows, which the upsert takes once.
 */
@Injectable()
export class TaskIndexRecovery implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('TaskIndexRecovery');
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly kv: KeyValueStore,
    private readonly tasks: A2aTaskRepository,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => {
      this.recover().catch((error: Error) => this.logger.warn(`Could not look for unindexed tasks: ${error.message}`));
    }, INTERVAL_MS);
    this.timer.unref();
  }

  beforeApplicationShutdown(): void {
    clearInterval(this.timer);
  }

  /** Queues the rows of records flagged at or before `before` and not indexed since; how many. */
  async recover(before = Date.now() - GRACE_MS): Promise<number> {
    let recovered = 0;
    for (const { key, at } of await this.kv.flagged(UNINDEXED_TASKS, before, BATCH)) {
      const stored = await this.kv.get(key);
      if (!stored) {
        // Expired or deleted: nothing left to index.
        await this.kv.unflag(UNINDEXED_TASKS, [{ key, upTo: at }]);
        continue;
      }
      const record = JSON.parse(stored.value) as TaskPersistenceRecord;
      await this.tasks.recordState(
        indexRowOf(record.agentId, record.owner, Task.fromJSON(record.task), record.task, at),
      );
      recovered++;
    }
    if (recovered > 0) this.logger.warn(`Indexing ${recovered} task(s) that a stopped replica had not indexed`);
    return recovered;
  }
}
