import type { Task, TaskState } from '@a2a-js/sdk';
import { LRUCache } from 'lru-cache';

/** What this replica knows of a task's record, and what it has yet to write there. */
export interface LiveTask {
  /** The record's etag as this replica last wrote or read it (null: there is no record yet). */
  etag: string | null;
  /** The task as this replica knows it: as written or read, with its changes not yet written. */
  task?: Task;
  /** The record's `context` field, kept as found. */
  context: unknown;
  /** `task` holds changes the record does not have yet. */
  dirty?: boolean;
  /** A write is scheduled (a deferred update; see TaskRecordWriter). */
  scheduled?: boolean;
  /** The write in flight: one at a time per task. Settles, never rejects. */
  writing?: Promise<void>;
  /** The state last written, for the Postgres index. */
  written?: TaskState;
}

/**
 * Tasks a replica keeps in memory, least recently used out first. No expiry: what a replica
 * remembers is only ever a starting point (a compare-and-set tells it when the store moved on),
 * and an LRU without timestamps costs the hot path less.
 */
const MAX_TASKS = 10_000;

/**
 * What this replica knows of each task it works on, by record key: the etag of its last write,
 * the task, and changes not yet written. A task's execution reads its own task back once per
 * event (the SDK loads, changes, saves); those reads are answered from here instead of the
 * key-value store, and writes compare-and-set against the remembered etag instead of reading
 * first. Only the execution's own calls read from here (see noteExecution in call-state.ts): any
 * other read - `tasks/get`, another client's cancel - goes to the store, which another replica
 * may have written since. When another replica did write, the compare-and-set fails, hands back
 * that version, and the writer merges and writes again: nothing is lost.
 */
export class LiveTasks {
  private readonly tasks = new LRUCache<string, LiveTask>({ max: MAX_TASKS });

  get(key: string): LiveTask | undefined {
    return this.tasks.get(key);
  }

  /** The entry for `key`, made (knowing nothing yet: no etag) if there is none. */
  entry(key: string): LiveTask {
    let entry = this.tasks.get(key);
    if (!entry) this.tasks.set(key, (entry = { etag: null, context: null }));
    return entry;
  }

  /** Takes what was read from the store, unless this replica has changes of its own not written yet. */
  remember(key: string, read: LiveTask & { task: Task }): void {
    const entry = this.tasks.get(key);
    if (entry?.dirty || entry?.writing) return;
    this.tasks.set(key, { ...read, task: copyOf(read.task), written: read.task.status?.state });
  }

  set(key: string, entry: LiveTask): void {
    this.tasks.set(key, entry);
  }
}

/**
 * A copy of a task its reader may change as the SDK does - replacing status, history, metadata,
 * pushing artifacts and changing their fields - without changing the original.
 */
export function copyOf(task: Task): Task {
  return { ...task, artifacts: task.artifacts.map((artifact) => ({ ...artifact })) };
}
