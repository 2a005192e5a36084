import { ListTasksRequest, ListTasksResponse, Task, TaskState, taskStateToJSON } from '@a2a-js/sdk';
import { RequestMalformedError } from '@a2a-js/sdk/errors';
import type { ServerCallContext, TaskStore } from '@a2a-js/sdk/server';
import { Logger } from '@nestjs/common';
import { DomainError } from '../../platform/errors/domain-error';
import { ErrorCode } from '../../platform/errors/error-code';
import { KeyValueStore } from '../../platform/kv/key-value-store';
import { ownerOf } from '../hosting/a2a-user';
import { A2aTaskRepository } from './a2a-task.repository';
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
 * two replicas working on one task lose no update. Postgres keeps a row per task for listing,
 * and the whole task once it is finished, so `tasks/get` still answers after the TTL.
 * Tasks are scoped to the caller's owner: another owner's task is simply not found.
 */
export class KvTaskStore implements TaskStore {
  private readonly logger = new Logger('TaskStore');

  constructor(
    private readonly agentId: string,
    private readonly kv: KeyValueStore,
    private readonly tasks: A2aTaskRepository,
    private readonly ttlMs: number,
  ) {}

  async save(task: Task, context: ServerCallContext): Promise<void> {
    const owner = ownerOf(context);
    const key = taskRecordKey(this.agentId, owner, task.id);
    for (let attempt = 1; attempt <= MAX_WRITE_ATTEMPTS; attempt++) {
      const current = await this.kv.get(key);
      const stored = current ? (JSON.parse(current.value) as TaskPersistenceRecord) : undefined;
      const storedTask = stored ? Task.fromJSON(stored.task) : undefined;
      const merged = storedTask ? mergeTasks(storedTask, task) : task;
      const record: TaskPersistenceRecord = {
        taskId: task.id,
        agentId: this.agentId,
        owner,
        task: Task.toJSON(merged),
        context: stored?.context ?? null,
        expiresAtUtc: new Date(Date.now() + this.ttlMs).toISOString(),
      };
      const written = await this.kv.compareAndSet(key, current?.etag ?? null, JSON.stringify(record), {
        ttlMs: this.ttlMs,
      });
      if (written.ok) {
        await this.index(owner, merged, storedTask?.status?.state);
        return;
      }
      this.logger.debug(`Task ${task.id}: concurrent write, merging (attempt ${attempt})`);
      await backoff(attempt);
    }
    throw new DomainError(ErrorCode.CONFLICT, `Task ${task.id} is being updated concurrently; try again`);
  }

  async load(taskId: string, context: ServerCallContext): Promise<Task | undefined> {
    const owner = ownerOf(context);
    const current = await this.kv.get(taskRecordKey(this.agentId, owner, taskId));
    if (current) return Task.fromJSON((JSON.parse(current.value) as TaskPersistenceRecord).task);
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

  /**
   * Records the task in Postgres when it is new, changes state, or finishes. The key-value write
   * has already succeeded, so a failure here is retried once and then logged rather than failing
   * the call: the task is safe for its TTL, and the log says which one missed its archive.
   */
  private async index(owner: string, task: Task, previousState: TaskState | undefined): Promise<void> {
    const state = task.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED;
    if (previousState === state && !isTerminal(state)) return;
    for (let attempt = 1; ; attempt++) {
      try {
        await this.record(owner, task, state);
        return;
      } catch (error) {
        if (attempt >= 2) {
          this.logger.error(
            `Task ${task.id} of agent ${this.agentId} was saved but not indexed/archived in Postgres: ${(error as Error).message}`,
          );
          return;
        }
      }
    }
  }

  private async record(owner: string, task: Task, state: TaskState): Promise<void> {
    await this.tasks.recordState({
      agentId: this.agentId,
      owner,
      taskId: task.id,
      contextId: task.contextId,
      state: taskStateToJSON(state),
      at: new Date(),
      finalTask: isTerminal(state) ? Task.toJSON(task) : undefined,
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
