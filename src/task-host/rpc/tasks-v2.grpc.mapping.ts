import { DomainError } from '../../platform/errors/domain-error';
import {
  fromProtoEnum,
  fromProtoStruct,
  toProtoEnum,
  toProtoStruct,
  toProtoTimestamp,
  toProtoValue,
} from '../../platform/grpc/grpc-wkt';
import { withoutEmpty } from '../../platform/validation/validate-input';
import type { TaskTreeNode, TaskView } from '../dto/task.view';
import type { TaskEvent } from '../engine/task-events';
import { TASK_STATUSES } from '../entities/task.entity';
import type { TaskCursor } from '../task.repository';

/**
 * switchboard.v2 TaskService encodings (proto/switchboard/v2/tasks.proto) of the same service
 * calls v1 makes: statuses and event kinds as enums, JSON as google.protobuf.Struct/Value, times
 * as google.protobuf.Timestamp, page tokens instead of offsets.
 */
export interface TaskInputV2 {
  id?: string;
  name?: string;
  parent_id?: string;
  priority?: number | null;
  inputs?: unknown;
  params?: unknown;
  schemas?: unknown;
  dependencies?: { id?: string; name?: string; required?: boolean }[];
  user_id?: string;
}

/** v2 task inputs as the plain task list parseTaskList validates (v1 parses JSON text into the same). */
export function taskInputsFromV2(tasks: TaskInputV2[] | undefined): unknown[] {
  return (tasks ?? []).map((raw) => {
    const { inputs, params, schemas, priority, ...rest } = raw;
    return {
      ...withoutEmpty(rest),
      priority: priority ?? undefined,
      inputs: fromProtoStruct(inputs),
      params: fromProtoStruct(params),
      schemas: fromProtoStruct(schemas),
    };
  });
}

export const taskStatusV2 = (status: string) => toProtoEnum('TASK_STATUS', status);

/** A v2 TaskStatus filter as the list DTO's status (unspecified: no filter). */
export function taskStatusFromV2(name: unknown) {
  return fromProtoEnum('TASK_STATUS', TASK_STATUSES, name);
}

export function taskV2(task: TaskView) {
  return {
    id: task.id,
    name: task.name,
    user_id: task.user_id,
    parent_id: task.parent_id ?? '',
    task_tree_id: task.task_tree_id,
    priority: task.priority,
    inputs: toProtoStruct(task.inputs),
    params: toProtoStruct(task.params),
    schemas: toProtoStruct(task.schemas),
    dependencies: task.dependencies.map((d) => ({ id: d.id, name: '', required: d.required })),
    status: taskStatusV2(task.status),
    result: task.result === null || task.result === undefined ? undefined : toProtoValue(task.result),
    error: task.error ?? '',
    progress: task.progress,
    has_children: task.has_children ?? false,
    create_time: toProtoTimestamp(task.created_at),
    update_time: toProtoTimestamp(task.updated_at),
    start_time: toProtoTimestamp(task.started_at),
    complete_time: toProtoTimestamp(task.completed_at),
  };
}

export function treeV2(node: TaskTreeNode): { task: ReturnType<typeof taskV2>; children: unknown[] } {
  return { task: taskV2(node.task), children: node.children.map(treeV2) };
}

export function eventV2(event: TaskEvent) {
  const { data } = event;
  return {
    kind: toProtoEnum('TASK_EVENT_KIND', event.event.replace(/^task_/, '')),
    task_id: data.task_id,
    root_task_id: data.root_task_id,
    execution_id: data.execution_id,
    status: taskStatusV2(data.status),
    progress: data.progress,
    result: data.result === undefined ? undefined : toProtoValue(data.result),
    error: data.error ?? '',
    final: data.final ?? false,
    time: toProtoTimestamp(data.timestamp),
  };
}

/**
 * Page tokens are opaque to clients: one names the last task of the page it ended (its creation
 * time to the millisecond and its id), and the next page starts after it (keyset paging: tasks
 * created meanwhile neither shift nor repeat what a client pages through).
 */
export function pageToken(last: { createdAt: Date; id: string }): string {
  return Buffer.from(JSON.stringify({ a: last.createdAt.toISOString(), i: last.id }), 'utf8').toString('base64url');
}

export function cursorFromPageToken(token: string | undefined): TaskCursor | undefined {
  if (!token) return undefined;
  let cursor: { a?: unknown; i?: unknown } | undefined;
  try {
    cursor = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as { a?: unknown; i?: unknown };
  } catch {
    cursor = undefined;
  }
  const createdAt = typeof cursor?.a === 'string' ? new Date(cursor.a) : undefined;
  const id = cursor?.i;
  if (!createdAt || Number.isNaN(createdAt.getTime()) || typeof id !== 'string' || !UUID.test(id))
    throw DomainError.validation([{ field: 'page_token', reason: 'is not a page token this server issued' }]);
  return { createdAt, id };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
