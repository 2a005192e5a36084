import { Injectable } from '@nestjs/common';
import type { Principal } from '../../platform/auth/principal';
import { DomainError } from '../../platform/errors/domain-error';
import { JsonRpcDispatcher, JsonRpcHandler, StreamedResult } from '../../platform/json-rpc/json-rpc';
import { validateInput } from '../../platform/validation/validate-input';
import { taskUpdate } from '../dto/task-input.dto';
import { toTaskView } from '../dto/task.view';
import { TaskEventStreams } from '../engine/task-event-streams';
import { taskIdParam } from '../task-access';
import { normalizeDependencies, parseTaskList } from '../task-batch';
import { ExecuteRequest, TaskExecutionService } from '../task-execution.service';
import { TaskTreeService } from '../task-tree.service';
import { ExecuteParamsDto, listRequest } from '../dto/task-query.dto';
import { executeAndWatch } from './execute-and-watch';
import { taskRpcCodeFor } from './task-rpc-codes';

/** The caller of a task-tree call. */
export interface TaskCall {
  principal: Principal;
}

/**
 * The `tasks.*` JSON-RPC methods: each shapes its params, calls the service, shapes the result
 * (apflow interface protocol). Served at POST /tasks and POST /.
 */
@Injectable()
export class TaskRpcMethods {
  readonly dispatcher: JsonRpcDispatcher<TaskCall>;

  constructor(
    private readonly trees: TaskTreeService,
    private readonly executions: TaskExecutionService,
    private readonly streams: TaskEventStreams,
  ) {
    const methods: Record<string, JsonRpcHandler<TaskCall>> = {
      'tasks.create': (params, { principal }) => this.create(principal, params),
      'tasks.get': async (params, { principal }) =>
        toTaskView(await this.trees.get(principal, taskIdParam(object(params)))),
      'tasks.update': (params, { principal }) => this.update(principal, object(params)),
      'tasks.delete': (params, { principal }) => this.delete(principal, object(params)),
      'tasks.list': (params, { principal }) => this.list(principal, object(params)),
      'tasks.execute': (params, { principal }) => this.execute(principal, params),
      'tasks.cancel': (params, { principal }) => this.cancel(principal, object(params)),
      'tasks.tree': (params, { principal }) =>
        this.trees.tree(principal, taskIdParam(object(params), 'task_id', 'root_id', 'id')),
      'tasks.children': (params, { principal }) => this.children(principal, object(params)),
      'tasks.copy': (params, { principal }) => this.copy(principal, object(params)),
      'tasks.watch': (params, { principal }) => this.watch(principal, object(params)),
    };
    methods['tasks.clone'] = methods['tasks.copy'];
    this.dispatcher = new JsonRpcDispatcher(new Map(Object.entries(methods)), taskRpcCodeFor);
  }

  private async create(principal: Principal, params: unknown) {
    const rows = await this.trees.create(principal, parseTaskList(params));
    return {
      id: rows[0].id,
      status: 'pending',
      tasks: rows.map((row) => ({ id: row.id, name: row.name, parent_id: row.parentId })),
    };
  }

  private async update(principal: Principal, params: Record<string, unknown>) {
    const id = taskIdParam(params);
    const fields = params.updates !== undefined ? object(params.updates, 'updates') : params;
    const immutable = ['id', 'parent_id', 'user_id'].filter(
      (field) => fields[field] !== undefined && !(field === 'id' && fields === params),
    );
    if (immutable.length > 0)
      throw DomainError.validation(immutable.map((field) => ({ field, reason: 'cannot be changed' })));
    const changes = taskUpdate({
      ...fields,
      dependencies: normalizeDependencies(fields.dependencies),
    });
    const version = params.version;
    if (version !== undefined && (typeof version !== 'number' || !Number.isInteger(version)))
      throw DomainError.validation([{ field: 'version', reason: 'must be an integer' }]);
    return toTaskView(await this.trees.update(principal, id, changes, version));
  }

  private async delete(principal: Principal, params: Record<string, unknown>) {
    const cascade = params.cascade ?? false;
    if (typeof cascade !== 'boolean') throw DomainError.validation([{ field: 'cascade', reason: 'must be a boolean' }]);
    const id = taskIdParam(params);
    const deleted = await this.trees.delete(principal, id, cascade);
    return { success: true, task_id: id, deleted_count: deleted.length };
  }

  private async list(principal: Principal, params: Record<string, unknown>) {
    const page = await this.trees.list(principal, listRequest(params));
    return {
      tasks: page.rows.map((row) => toTaskView(row, page.withChildren.has(row.id))),
      total: page.total,
      limit: page.limit,
      offset: page.offset,
    };
  }

  private async children(principal: Principal, params: Record<string, unknown>) {
    const { rows, withChildren } = await this.trees.children(
      principal,
      taskIdParam(params, 'parent_id', 'task_id', 'id'),
    );
    return { children: rows.map((row) => toTaskView(row, withChildren.has(row.id))) };
  }

  private async copy(principal: Principal, params: Record<string, unknown>) {
    const withChildren = params.copy_children ?? params.recursive ?? false;
    if (typeof withChildren !== 'boolean')
      throw DomainError.validation([{ field: 'copy_children', reason: 'must be a boolean' }]);
    const id = taskIdParam(params);
    const copy = await this.trees.copy(principal, id, withChildren);
    return { original_task_id: id, copied_task_id: copy.id, status: 'pending' };
  }

  private async cancel(principal: Principal, params: Record<string, unknown>) {
    const { taskId, cancelled } = await this.executions.cancel(principal, taskIdParam(params));
    return { task_id: taskId, status: 'cancelled', cancelled_count: cancelled.length };
  }

  /**
   * `{task_id}` (any task of the tree): an event stream of the tree's next execution, whichever
   * replica runs it, ending after its `final` event (as gRPC WatchTaskTree).
   */
  private async watch(principal: Principal, params: Record<string, unknown>) {
    const task = await this.trees.get(principal, taskIdParam(params));
    const events = await this.streams.open(task.rootId);
    return new StreamedResult({ root_task_id: task.rootId, task_id: task.id, streaming: true }, events);
  }

  /**
   * `{task_id}` or `{tasks}` (or the task list itself); `use_streaming` (or `metadata.stream`)
   * answers with an event stream; `push_notification_config` (also under `configuration`, or
   * apflow's `webhook_config`) posts every state change.
   */
  private async execute(principal: Principal, raw: unknown) {
    const params = Array.isArray(raw) ? { tasks: raw } : object(raw);
    const configuration = params.configuration === undefined ? {} : object(params.configuration, 'configuration');
    const metadata = params.metadata === undefined ? {} : object(params.metadata, 'metadata');
    const options = validateInput(ExecuteParamsDto, {
      use_streaming: params.use_streaming ?? metadata.stream,
      push_notification_config:
        params.push_notification_config ?? configuration.push_notification_config ?? params.webhook_config,
    });
    const request: ExecuteRequest = {
      taskId: params.tasks === undefined ? taskIdParam(params) : undefined,
      tasks: params.tasks === undefined ? undefined : parseTaskList(params.tasks),
      push: options.push_notification_config,
    };
    if (!options.use_streaming) {
      const started = await this.executions.execute(principal, request);
      return started$(started.rootTaskId, started.taskId, started.execution.id);
    }
    const { started, events } = await executeAndWatch(this.executions, this.streams, principal, request);
    return new StreamedResult(started$(started.rootTaskId, started.taskId, started.execution.id, true), events);
  }
}

function started$(rootTaskId: string, taskId: string, executionId: string, streaming = false) {
  return {
    root_task_id: rootTaskId,
    task_id: taskId,
    execution_id: executionId,
    status: 'started',
    ...(streaming ? { streaming: true } : {}),
  };
}

function object(value: unknown, field = 'params'): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw DomainError.validation([{ field, reason: 'must be an object' }]);
  return value as Record<string, unknown>;
}
