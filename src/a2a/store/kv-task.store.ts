import { ListTasksRequest, ListTasksResponse, Task, taskStateToJSON } from '@a2a-js/sdk';
import { RequestMalformedError } from '@a2a-js/sdk/errors';
import type { RequestContext, ServerCallContext, TaskStore } from '@a2a-js/sdk/server';
import { KeyValueStore } from '../../platform/kv/key-value-store';
import { ownerOf } from '../hosting/a2a-user';
import { isExecutionOf, noteExecution } from '../hosting/call-state';
import { A2aTaskRepository, fromArchive } from './a2a-task.repository';
import { copyOf, LiveTasks } from './live-tasks';
import { RecordTtl, TaskRecordWriter } from './task-record-writer';
import { taskRecordKey } from './task-record';

const DEFAULT_PAGE_SIZE = 50;
const MAX_PAGE_SIZE = 100;

/**
 * The SDK's TaskStore for one hosted agent. Live tasks are TaskPersistenceRecords in the
 * key-value store (Redis across replicas) with a TTL, written by compare-and-set so two replicas
 * working on one task lose no update (TaskRecordWriter). A task's own execution neither reads
 * back what this replica just wrote nor looks up a task id the SDK just made up (LiveTasks).
 * Postgres keeps a row per task for listing, and the whole task once it is finished, so
 * `tasks/get` still answers after the TTL; those rows are written behind the answer
 * (A2aTaskRepository.recordState). Tasks are scoped to the caller's owner: another owner's task
 * is simply not found.
 */
export class KvTaskStore implements TaskStore {
  private readonly writer: TaskRecordWriter;

  constructor(
    private readonly agentId: string,
    private readonly kv: KeyValueStore,
    private readonly tasks: A2aTaskRepository,
    ttl: RecordTtl,
    private readonly live = new LiveTasks(),
  ) {
    this.writer = new TaskRecordWriter(agentId, kv, tasks, ttl);
  }

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
    await this.writer.save(key, this.live.entry(key), owner, task, isExecutionOf(context, task.id));
  }

  async load(taskId: string, context: ServerCallContext): Promise<Task | undefined> {
    const owner = ownerOf(context);
    const recorded = await this.recorded(owner, taskId, context);
    if (recorded !== null) return recorded;
    return archivedTask(await this.tasks.findFinalTask(this.agentId, owner, taskId));
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
      // A task without a record is its row's: the archived task, or gone if it never finished.
      const recorded = await this.recorded(owner, row.taskId, context);
      const task = recorded === null ? archivedTask(fromArchive(row.finalTask ?? undefined)) : recorded;
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

  /** The task as its record (or this execution's memory) has it; undefined: known not to exist; null: no record. */
  private async recorded(owner: string, taskId: string, context: ServerCallContext): Promise<Task | undefined | null> {
    const key = taskRecordKey(this.agentId, owner, taskId);
    if (isExecutionOf(context, taskId)) {
      const known = this.live.get(key);
      if (known) return known.task && copyOf(known.task);
    }
    const current = await this.kv.get(key);
    if (!current) return null;
    const read = this.writer.parse(current);
    this.live.remember(key, read);
    return read.task;
  }
}

function archivedTask(archived: unknown): Task | undefined {
  return archived === undefined ? undefined : Task.fromJSON(archived);
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
