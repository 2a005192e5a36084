import type { Task } from '@a2a-js/sdk';
import { LRUCache } from 'lru-cache';

/** What this replica last wrote of a task (or knows: `etag` null and no task - it does not exist yet). */
export interface LiveTask {
  etag: string | null;
  task?: Task;
  /** The record's `context` field, kept as found. */
  context: unknown;
}

/** Tasks a replica keeps in memory: a live task rarely has more than a few events left after this. */
const MAX_TASKS = 10_000;
const TTL_MS = 10 * 60_000;

/**
 * What this replica last wrote of each task it works on, with the etag of that write. A task's
 * execution reads its own task back once per event (the SDK loads, changes, saves); those reads
 * are answered from here instead of the key-value store, and writes compare-and-set against the
 * remembered etag instead of reading first. Only the execution's own calls read from here (see
 * noteExecution in call-state.ts): any other read - `tasks/get`, another client's cancel - goes to the store, which
 * another replica may have written since. When another replica did write, the compare-and-set
 * fails, hands back that version, and the store merges and writes again: nothing is lost.
 */
export class LiveTasks {
  private readonly tasks = new LRUCache<string, LiveTask>({ max: MAX_TASKS, ttl: TTL_MS });

  get(key: string): LiveTask | undefined {
    return this.tasks.get(key);
  }

  set(key: string, entry: LiveTask): void {
    this.tasks.set(key, entry);
  }

  forget(key: string): void {
    this.tasks.delete(key);
  }
}
