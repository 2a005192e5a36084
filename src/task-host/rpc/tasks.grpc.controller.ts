import { Controller } from '@nestjs/common';
import { GrpcMethod, Payload } from '@nestjs/microservices';
import { Observable } from 'rxjs';
import { CurrentPrincipal, RequireScopes } from '../../platform/auth/auth.decorators';
import type { Principal } from '../../platform/auth/principal';
import { DomainError } from '../../platform/errors/domain-error';
import { ErrorCode } from '../../platform/errors/error-code';
import { toDomainError } from '../../platform/errors/to-domain-error';
import { AppConfig, type JsonLimits } from '../../platform/config/app-config';
import { parseLimitedJson } from '../../platform/http/json-limits';
import { RateLimit } from '../../platform/rate-limit/rate-limit.decorator';
import { validateInput, withoutEmpty } from '../../platform/validation/validate-input';
import { ExecuteParamsDto, listRequest } from '../dto/task-query.dto';
import { TaskTreeNode, TaskView, toTaskView } from '../dto/task.view';
import { TaskEventStreams } from '../engine/task-event-streams';
import { executeAndWatch } from './execute-and-watch';
import type { TaskEvent } from '../engine/task-events';
import { taskIdParam } from '../task-access';
import { parseTaskList } from '../task-batch';
import { TaskExecutionService } from '../task-execution.service';
import { LIST_DEFAULT_LIMIT, LIST_MAX_LIMIT, TaskTreeService } from '../task-tree.service';
import {
  eventV2,
  cursorFromPageToken,
  pageToken,
  TaskInputV2,
  taskInputsFromV2,
  taskStatusFromV2,
  taskStatusV2,
  taskV2,
  treeV2,
} from './tasks-v2.grpc.mapping';

type TaskRef = { task_id?: string } & Record<string, unknown>;

const V1 = 'switchboard.v1.TaskService';
const V2 = 'switchboard.v2.TaskService';

interface GrpcTaskInput {
  id?: string;
  name?: string;
  parent_id?: string;
  priority?: number;
  inputs_json?: string;
  params_json?: string;
  schemas_json?: string;
  dependencies?: { id?: string; name?: string; required?: boolean }[];
  user_id?: string;
}

/**
 * Task trees over gRPC: switchboard.v1.TaskService (proto/switchboard/v1/tasks.proto) and
 * switchboard.v2.TaskService (v2/tasks.proto), the same service calls with a thin encoding each
 * (tasks-v2.grpc.mapping.ts). Handlers are named by full service name, one per package.
 */
@Controller()
@RequireScopes('tasks')
@RateLimit('tasks')
export class TasksGrpcController {
  constructor(
    private readonly trees: TaskTreeService,
    private readonly executions: TaskExecutionService,
    private readonly streams: TaskEventStreams,
    private readonly config: AppConfig,
  ) {}

  @GrpcMethod(V1, 'CreateTasks')
  async createTasks(@Payload() request: { tasks?: GrpcTaskInput[] }, @CurrentPrincipal() principal: Principal) {
    const rows = await this.trees.create(principal, parseTaskList(taskInputs(request.tasks, this.config.http.json)));
    return {
      id: rows[0].id,
      status: 'pending',
      tasks: rows.map((row) => ({ id: row.id, name: row.name, parent_id: row.parentId ?? '' })),
    };
  }

  @GrpcMethod(V1, 'GetTask')
  async getTask(@Payload() request: TaskRef, @CurrentPrincipal() principal: Principal) {
    return toGrpcTask(toTaskView(await this.trees.get(principal, taskIdParam(withoutEmpty(request)))));
  }

  @GrpcMethod(V1, 'ListTasks')
  async listTasks(@Payload() request: Record<string, unknown>, @CurrentPrincipal() principal: Principal) {
    const plain = withoutEmpty(request);
    if (plain.limit === 0) delete plain.limit;
    if (plain.root_only === false) delete plain.root_only;
    const page = await this.trees.list(principal, listRequest(plain));
    return {
      tasks: page.rows.map((row) => toGrpcTask(toTaskView(row, page.withChildren.has(row.id)))),
      total: page.total,
      limit: page.limit,
      offset: page.offset,
    };
  }

  @GrpcMethod(V1, 'ExecuteTask')
  async executeTask(
    @Payload()
    request: { task_id?: string; tasks?: GrpcTaskInput[]; push_notification_config?: Record<string, unknown> | null },

    @CurrentPrincipal() principal: Principal,
  ) {
    const { push_notification_config } = validateInput(
      ExecuteParamsDto,
      withoutEmpty({ push_notification_config: request.push_notification_config }),
    );
    const tasks = request.tasks?.length ? parseTaskList(taskInputs(request.tasks, this.config.http.json)) : undefined;
    const started = await this.executions.execute(principal, {
      taskId: tasks ? undefined : taskIdParam(withoutEmpty({ task_id: request.task_id })),
      tasks,
      push: push_notification_config,
    });
    return {
      root_task_id: started.rootTaskId,
      task_id: started.taskId,
      execution_id: started.execution.id,
      status: 'started',
    };
  }

  @GrpcMethod(V1, 'CancelTask')
  async cancelTask(@Payload() request: TaskRef, @CurrentPrincipal() principal: Principal) {
    const { taskId, cancelled } = await this.executions.cancel(principal, taskIdParam(withoutEmpty(request)));
    return { task_id: taskId, status: 'cancelled', cancelled_count: cancelled.length };
  }

  @GrpcMethod(V1, 'GetTaskTree')
  async getTaskTree(@Payload() request: TaskRef, @CurrentPrincipal() principal: Principal) {
    return toGrpcTree(await this.trees.tree(principal, taskIdParam(withoutEmpty(request))));
  }

  @GrpcMethod(V1, 'WatchTaskTree')
  watchTaskTree(@Payload() request: TaskRef, @CurrentPrincipal() principal: Principal) {
    return this.watch(principal, request, toGrpcEvent);
  }

  @GrpcMethod(V2, 'CreateTasks')
  async createTasksV2(@Payload() request: { tasks?: TaskInputV2[] }, @CurrentPrincipal() principal: Principal) {
    const rows = await this.trees.create(principal, parseTaskList(taskInputsFromV2(request.tasks)));
    return {
      id: rows[0].id,
      status: taskStatusV2('pending'),
      tasks: rows.map((row) => ({ id: row.id, name: row.name, parent_id: row.parentId ?? '' })),
    };
  }

  @GrpcMethod(V2, 'GetTask')
  async getTaskV2(@Payload() request: TaskRef, @CurrentPrincipal() principal: Principal) {
    return { task: taskV2(toTaskView(await this.trees.get(principal, taskIdParam(withoutEmpty(request))))) };
  }

  @GrpcMethod(V2, 'ListTasks')
  async listTasksV2(@Payload() request: Record<string, unknown>, @CurrentPrincipal() principal: Principal) {
    const { page_size, page_token, status, root_only, ...filter } = withoutEmpty(request);
    const size = typeof page_size === 'number' && page_size !== 0 ? page_size : undefined;
    if (size !== undefined && (size < 1 || size > LIST_MAX_LIMIT))
      throw DomainError.validation([{ field: 'page_size', reason: `must be between 1 and ${LIST_MAX_LIMIT}` }]);
    const after = cursorFromPageToken(typeof page_token === 'string' ? page_token : undefined);
    const query = { ...filter, status: taskStatusFromV2(status), root_only: root_only || undefined };
    const limit = size ?? LIST_DEFAULT_LIMIT;
    const page = await this.trees.pageAfter(principal, { ...listRequest(withoutEmpty(query)), limit, after });
    return {
      tasks: page.rows.map((row) => taskV2(toTaskView(row, page.withChildren.has(row.id)))),
      next_page_token: page.next ? pageToken(page.next) : '',
      total_size: page.total,
    };
  }

  @GrpcMethod(V2, 'ExecuteTask')
  async executeTaskV2(@Payload() request: ExecuteRequestV2, @CurrentPrincipal() principal: Principal) {
    const started = await this.executions.execute(principal, executeRequestV2(request));
    return { root_task_id: started.rootTaskId, task_id: started.taskId, execution_id: started.execution.id };
  }

  /** ExecuteTask with the execution's events, watched from before it starts. */
  @GrpcMethod(V2, 'ExecuteTaskStream')
  async executeTaskStreamV2(@Payload() request: ExecuteRequestV2, @CurrentPrincipal() principal: Principal) {
    const { started, events } = await executeAndWatch(
      this.executions,
      this.streams,
      principal,
      executeRequestV2(request),
    );
    const first = {
      started: { root_task_id: started.rootTaskId, task_id: started.taskId, execution_id: started.execution.id },
    };
    return streamOf(events, (event) => ({ event: eventV2(event) }), first);
  }

  @GrpcMethod(V2, 'CancelTask')
  async cancelTaskV2(@Payload() request: TaskRef, @CurrentPrincipal() principal: Principal) {
    const { taskId, cancelled } = await this.executions.cancel(principal, taskIdParam(withoutEmpty(request)));
    return { task_id: taskId, status: taskStatusV2('cancelled'), cancelled_count: cancelled.length };
  }

  @GrpcMethod(V2, 'GetTaskTree')
  async getTaskTreeV2(@Payload() request: TaskRef, @CurrentPrincipal() principal: Principal) {
    return { root: treeV2(await this.trees.tree(principal, taskIdParam(withoutEmpty(request)))) };
  }

  @GrpcMethod(V2, 'WatchTaskTree')
  watchTaskTreeV2(@Payload() request: TaskRef, @CurrentPrincipal() principal: Principal) {
    return this.watch(principal, request, eventV2);
  }

  /** The tree's events (its running execution or its next), each in the caller's encoding. */
  private async watch<T>(principal: Principal, request: TaskRef, encode: (event: TaskEvent) => T) {
    const task = await this.trees.get(principal, taskIdParam(withoutEmpty(request)));
    return streamOf(await this.streams.open(task.rootId), encode);
  }
}

type ExecuteRequestV2 = {
  task_id?: string;
  tasks?: TaskInputV2[];
  push_notification_config?: Record<string, unknown> | null;
};

/** What a v2 ExecuteTask(Stream) asks for: a task's tree, or new tasks' (checked like any input). */
function executeRequestV2(request: ExecuteRequestV2) {
  const { push_notification_config } = validateInput(
    ExecuteParamsDto,
    withoutEmpty({ push_notification_config: request.push_notification_config }),
  );
  const tasks = request.tasks?.length ? parseTaskList(taskInputsFromV2(request.tasks)) : undefined;
  return {
    taskId: tasks ? undefined : taskIdParam(withoutEmpty({ task_id: request.task_id })),
    tasks,
    push: push_notification_config,
  };
}

/** A gRPC server stream of `events`, each encoded, after `first` if given; reading stops when the caller goes. */
function streamOf<T, F>(events: AsyncIterable<TaskEvent>, encode: (event: TaskEvent) => T, first?: F) {
  return new Observable<T | F>((subscriber) => {
    if (first !== undefined) subscriber.next(first);
    const iterator = events[Symbol.asyncIterator]();
    void (async () => {
      try {
        for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
          subscriber.next(encode(next.value));
        }
        subscriber.complete();
      } catch (error) {
        subscriber.error(error);
      }
    })();
    return () => void iterator.return?.();
  });
}

function taskInputs(tasks: GrpcTaskInput[] | undefined, limits: JsonLimits): unknown[] {
  return (tasks ?? []).map((raw, index) => {
    const task = withoutEmpty(raw);
    const json = (field: 'inputs_json' | 'params_json' | 'schemas_json') => {
      const text = task[field];
      if (text === undefined) return undefined;
      try {
        return parseLimitedJson(text, limits, `tasks[${index}].${field}`);
      } catch (error) {
        if (toDomainError(error).code !== ErrorCode.MALFORMED_REQUEST) throw error;
        throw DomainError.validation([{ field: `tasks[${index}].${field}`, reason: 'must be JSON' }]);
      }
    };
    return {
      id: task.id,
      name: task.name,
      parent_id: task.parent_id,
      priority: raw.priority ?? undefined,
      inputs: json('inputs_json'),
      params: json('params_json'),
      schemas: json('schemas_json'),
      dependencies: task.dependencies,
      user_id: task.user_id,
    };
  });
}

function toGrpcTask(task: TaskView) {
  return {
    id: task.id,
    name: task.name,
    user_id: task.user_id,
    parent_id: task.parent_id ?? '',
    task_tree_id: task.task_tree_id,
    priority: task.priority,
    inputs_json: JSON.stringify(task.inputs),
    params_json: JSON.stringify(task.params),
    schemas_json: JSON.stringify(task.schemas),
    dependencies: task.dependencies.map((d) => ({ id: d.id, name: '', required: d.required })),
    status: task.status,
    result_json: task.result === null ? '' : JSON.stringify(task.result),
    error: task.error ?? '',
    progress: task.progress,
    has_children: task.has_children ?? false,
    created_at: task.created_at,
    updated_at: task.updated_at,
    started_at: task.started_at ?? '',
    completed_at: task.completed_at ?? '',
  };
}

function toGrpcTree(node: TaskTreeNode): { task: ReturnType<typeof toGrpcTask>; children: unknown[] } {
  return { task: toGrpcTask(node.task), children: node.children.map(toGrpcTree) };
}

function toGrpcEvent(event: TaskEvent) {
  const { data } = event;
  return {
    event: event.event,
    task_id: data.task_id,
    root_task_id: data.root_task_id,
    execution_id: data.execution_id,
    status: data.status,
    progress: data.progress,
    result_json: data.result === undefined ? '' : JSON.stringify(data.result),
    error: data.error ?? '',
    final: data.final ?? false,
    timestamp: data.timestamp,
    protocol: data.protocol,
  };
}
