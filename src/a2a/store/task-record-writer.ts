import { Task, TaskState } from '@a2a-js/sdk';
import { Logger } from '@nestjs/common';
import { DomainError } from '../../platform/errors/domain-error';
import { ErrorCode } from '../../platform/errors/error-code';
import { KeyValueStore, StoredValue } from '../../platform/kv/key-value-store';
import { A2aTaskRepository } from './a2a-task.repository';
import { LiveTask } from './live-tasks';
import { isTerminal, mergeTasks } from './task-merge';
import { indexRowOf, recordText, TaskPersistenceRecord, UNINDEXED_TASKS } from './task-record';

const MAX_WRITE_ATTEMPTS = 16;
/** Backoff between attempts: grows with each lost race, with jitter so racing writers spread out. */
const backoff = (attempt: number) =>
  new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(50, 2 ** attempt)));

/** How long a task's record is kept: while it runs or waits for input, and once it has finished. */
export interface RecordTtl {
  runningMs: number;
  finishedMs: number;
}

/** States a task passes through while it runs: updates to them may be written a moment later. */
const RUNNING: ReadonlySet<TaskState | undefined> = new Set([
  TaskState.TASK_STATE_SUBMITTED,
  TaskState.TASK_STATE_WORKING,
]);

/**
 * Writes one agent's task records to the key-value store: a compare-and-set on the record's etag,
 * and when another writer got there first, a merge with its version and another try. A task's
 * first write, and every write that settles it (a final state, or input or auth required), is
 * waited for: a caller is never told of a state the store does not have. Updates of a running
 * task made by its own execution (working, an artifact) are written a moment later instead -
 * once the events that came with them are handled - so a stream's successive updates cost one
 * write rather than one each. A write that changes the task's state (or finishes it) flags its
 * Postgres row as owed, with the write itself, and queues the row, which follows behind the answer.
 */
export class TaskRecordWriter {
  private readonly logger = new Logger('TaskStore');

  constructor(
    private readonly agentId: string,
    private readonly kv: KeyValueStore,
    private readonly tasks: A2aTaskRepository,
    private readonly ttl: RecordTtl,
  ) {}

  /** Records `task` into the entry; `deferrable`: the caller is the task's own execution. */
  async save(key: string, entry: LiveTask, owner: string, task: Task, deferrable: boolean): Promise<void> {
    entry.task = entry.task ? mergeTasks(entry.task, task) : { ...task };
    entry.dirty = true;
    if (deferrable && entry.etag !== null && RUNNING.has(task.status?.state)) {
      this.schedule(key, entry, owner);
      return;
    }
    await this.flush(key, entry, owner);
  }

  /** The record as stored, parsed. */
  parse(stored: StoredValue): LiveTask & { task: Task } {
    const record = JSON.parse(stored.value) as TaskPersistenceRecord;
    return { etag: stored.etag, task: Task.fromJSON(record.task), context: record.context };
  }

  private schedule(key: string, entry: LiveTask, owner: string): void {
    if (entry.scheduled) return;
    entry.scheduled = true;
    setImmediate(() => {
      entry.scheduled = false;
      this.flush(key, entry, owner).catch((error: Error) =>
        this.logger.warn(`Task record ${key} could not be updated: ${error.message}`),
      );
    });
  }

  /** Writes what the entry holds that the record lacks: after the write in flight, if any (its changes may ride along). */
  private async flush(key: string, entry: LiveTask, owner: string): Promise<void> {
    while (entry.writing) await entry.writing;
    if (!entry.dirty) return;
    const writing = this.write(key, entry, owner);
    entry.writing = writing.then(
      () => undefined,
      () => undefined,
    );
    try {
      await writing;
    } finally {
      entry.writing = undefined;
    }
  }

  private async write(key: string, entry: LiveTask, owner: string): Promise<void> {
    for (let attempt = 1; attempt <= MAX_WRITE_ATTEMPTS; attempt++) {
      const task = entry.task!;
      entry.dirty = false;
      const state = task.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED;
      const ttlMs = isTerminal(state) ? this.ttl.finishedMs : this.ttl.runningMs;
      const json = Task.toJSON(task);
      const taskText = JSON.stringify(json);
      const record = recordText(
        {
          taskId: task.id,
          agentId: this.agentId,
          owner,
          context: entry.context ?? null,
          expiresAtUtc: new Date(Date.now() + ttlMs).toISOString(),
        },
        taskText,
      );
      // Its Postgres row is owed when the task is new, changes state or finishes.
      const indexed = entry.written !== state || isTerminal(state);
      const at = Date.now();
      const written = await this.kv.compareAndSet(key, entry.etag, record, {
        ttlMs,
        flag: indexed ? { set: UNINDEXED_TASKS, at } : undefined,
      });
      if (written.ok) {
        entry.etag = written.etag;
        entry.written = state;
        // The write flagged the row as owed: it follows a few milliseconds behind.
        if (indexed) await this.tasks.recordState(indexRowOf(this.agentId, owner, task, json, at, taskText));
        return;
      }
      // Another writer got there first (or the record is gone): merge with what it wrote.
      entry.dirty = true;
      const current = written.current ? this.parse(written.current) : undefined;
      entry.etag = current?.etag ?? null;
      if (current) {
        entry.task = mergeTasks(current.task, entry.task!);
        entry.context = current.context;
        entry.written = current.task.status?.state;
      }
      if (attempt > 1) {
        this.logger.debug(`Task ${task.id}: concurrent write, merging (attempt ${attempt})`);
        await backoff(attempt);
      }
    }
    throw new DomainError(
      ErrorCode.CONCURRENT_UPDATE,
      `Task ${entry.task?.id} is being updated concurrently; try again`,
    );
  }
}
