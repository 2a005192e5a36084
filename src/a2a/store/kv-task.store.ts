import { ListTasksRequest, ListTasksResponse, Task, TaskState, taskStateToJSON } from '@a2a-js/sdk';
import { RequestMalformedError } from '@a2a-js/sdk/errors';
import type { RequestContext, ServerCallContext, TaskStore } from '@a2a-js/sdk/server';
import { Logger } from '@nestjs/common';
import { DomainError } from '../../platform/errors/domain-error';
import { ErrorCode } from '../../platform/errors/error-code';
import { KeyValueStore, StoredValue } from '../../platform/kv/key-value-store';
import { ownerOf } from '../hosting/a2a-user';
import { isExecutionOf, noteExecution } from '../hosting/call-state';
import { A2aTaskRepository } from './a2a-task.repository';
import { LiveTask, LiveTasks } from './live-tasks';
import { isTerminal, mergeTasks } from './task-merge';
import { TaskPersistenceRecord, taskRecordKey } from './task-record';

const MAX_WRITE_ATTEMPTS = 16;
/** Backoff between attempts: grows with each lost race, with jitter so racing writers spread out. */
const backoff = (attempt: number) =>
  new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(50, 2 ** attempt)));
const DEFAULT_PAGE_SIZE = 50;
const MAX_PAGE_SIZE = 100;

/**
 * The SDK's TaskStore for one hosted agent. Live tasks are TaskPersistenceRecords in the
 * key-value store (Redis across replicas) with a TTL; every write is a compare-and-set on the
 * record's etag, and a writer that loses merges with the winner's version and tries again, so
 * two replicas working on one task lose no update. A task's own execution neither reads back
 * what this replica just wrote nor looks up a task id the SDK just made up (LiveTasks), so a
 * state change costs one key-value write. Postgres keeps a row per task for listing, and the
 * whole task once it is finished, so `tasks/get` still answers after the TTL; those rows are
 * written behind the answer (A2aTaskRepository.recordState). Tasks are scoped to the caller's
 * owner: another owner's task is simply not found.
 */
export class KvTaskStore implements TaskStore {
  private readonly logger = new Logger('TaskStore');

  constructor(
    private readonly agentId: string,
    private readonly kv: KeyValueStore,
    private readonly tasks: A2aTaskRepository,
    private readonly ttlMs: number,
    private readonly live = new LiveTasks(),
  ) {}

  /**
   * Called as an execution starts on this replica: its calls may read their task from memory,
   * and a task the request did not name (the SDK made its id up) is known not to exist yet.
   */
  beginExecution(request: RequestContext): void {
    const fresh = !request.task;
    if (fresh) {
      this.live.set(taskRecordKey(this.agentId, ownerOf(request.context), request.taskId), {
        etag: null,
        context: null,
      });
    }
    noteExecution(request.context, request.taskId, fresh);
  }

  async save(task: Task, context: ServerCallContext): Promise<void> {
    const owner = ownerOf(context);
    const key = taskRecordKey(this.agentId, owner, task.id);
    let known = this.live.get(key);
    for (let attempt = 1; attempt <= MAX_WRITE_ATTEMPTS; attempt++) {
      const stored = known?.task;
      const merged = stored ? mergeTasks(stored, task) : { ...task };
      const json = Task.toJSON(merged);
      const record: TaskPersistenceRecord = {
        taskId: task.id,
        agentId: this.agentId,
        owner,
        task: json,
        context: known?.context ?? null,
        expiresAtUtc: new Date(Date.now() + this.ttlMs).toISOString(),
      };
      const written = await this.kv.compareAndSet(key, known?.etag ?? null, JSON.stringify(record), {
        ttlMs: this.ttlMs,
      });
      if (written.ok) {
        this.live.set(key, { etag: written.etag, task: merged, context: record.context });
        await this.index(owner, merged, json, stored?.status?.state);
        return;
      }
      // Another writer got there first (or the record is gone): merge with what it wrote.
      known = written.current ? this.parse(written.current) : undefined;
      if (attempt > 1) {
        this.logger.debug(`Task ${task.id}: concurrent write, merging (attempt ${attempt})`);
        await backoff(attempt);
      }
    }
    this.live.forget(key);
    throw new DomainError(ErrorCode.CONFLICT, `Task ${task.id} is being updated concurrently; try again`);
  }

  async load(taskId: string, context: ServerCallContext): Promise<Task | undefined> {
    const owner = ownerOf(context);
    const key = taskRecordKey(this.agentId, owner, taskId);
    if (isExecutionOf(context, taskId)) {
      const known = this.live.get(key);
      if (known) return known.task && structuredClone(known.task);
    }
    const current = await this.kv.get(key);
    if (current) {
      const known = this.parse(current);
      this.live.set(key, known);
      return structuredClone(known.task);
    }
    const archived = await this.tasks.findFinalTask(this.agentId, owner, taskId);
    return archived === undefined ? undefined : Task.fromJSON(archived);
  }

  async list(params: ListTasksRequest, context: ServerCallContext): Promise<ListTasksResponse> {
    const owner = ownerOf(context);
    const pageSize = Math.min(params.pageSize ?? DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE);
    if (pageSize < 1) throw new RequestMalformedError('pageSize must be between 1 and 100');
    const { rows, total } = await this.tasks.page({
      agentId: this.agentId,
      owner,
      contextId: params.contextId || undefined,
      state: params.status ? taskStateToJSON(params.status) : undefined,
      updatedAfter: params.statusTimestampAfter ? parseTime(params.statusTimestampAfter) : undefined,
      limit: pageSize + 1,
      after: params.pageToken ? decodePageToken(params.pageToken) : undefined,
    });
    const page = rows.slice(0, pageSize);
    const tasks: Task[] = [];
    for (const row of page) {
      const task = await this.load(row.taskId, context);
      if (task) tasks.push(params.includeArtifacts ? task : { ...task, artifacts: [] });
    }
    const last = page[page.length - 1];
    return {
      tasks,
      nextPageToken: rows.length > pageSize && last ? encodePageToken(last.updatedAt, last.taskId) : '',
      pageSize,
      totalSize: total,
    };
  }

  private parse(stored: StoredValue): LiveTask & { task: Task } {
    const record = JSON.parse(stored.value) as TaskPersistenceRecord;
    return { etag: stored.etag, task: Task.fromJSON(record.task), context: record.context };
  }

  /**
   * Queues the task's Postgres row when it is new, changes state, or finishes (`json` is the
   * task as written). The key-value write has succeeded: the row follows a few milliseconds
   * behind, off the answer's path.
   */
  private async index(owner: string, task: Task, json: unknown, previousState: TaskState | undefined): Promise<void> {
    const state = task.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED;
    if (previousState === state && !isTerminal(state)) return;
    await this.tasks.recordState({
      agentId: this.agentId,
      owner,
      taskId: task.id,
      contextId: task.contextId,
      state: taskStateToJSON(state),
      at: new Date(),
      finalTask: isTerminal(state) ? json : undefined,
    });
  }
}

function parseTime(value: string): Date {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) throw new RequestMalformedError('statusTimestampAfter must be an RFC 3339 time');
  return date;
}

function encodePageToken(updatedAt: Date, taskId: string): string {
  return Buffer.from(JSON.stringify([updatedAt.toISOString(), taskId])).toString('base64url');
}

function decodePageToken(token: string): { updatedAt: Date; taskId: string } {
  try {
    const [at, taskId] = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as [string, string];
    const updatedAt = new Date(at);
    if (typeof taskId !== 'string' || Number.isNaN(updatedAt.getTime())) throw new Error('bad cursor');
    return { updatedAt, taskId };
  } catch {
    throw new RequestMalformedError('pageToken is not one this server issued');
  }
}
