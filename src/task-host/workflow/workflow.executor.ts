import { Artifact, Message, Role, TaskState } from '@a2a-js/sdk';
import { AgentEvent, AgentExecutor, ExecutionEventBus, RequestContext } from '@a2a-js/sdk/server';
import { randomUUID } from 'node:crypto';
import { A2aUser } from '../../a2a/hosting/a2a-user';
import type { Principal } from '../../platform/auth/principal';
import { DomainError, isDomainError } from '../../platform/errors/domain-error';
import type { TaskStatus } from '../entities/task.entity';
import { TaskEventStreams } from '../engine/task-event-streams';
import type { TaskEvent } from '../engine/task-events';
import { parseTaskList } from '../task-batch';
import { TaskExecutionService } from '../task-execution.service';
import { TaskTreeService } from '../task-tree.service';

const STATES: Record<TaskStatus, TaskState> = {
  pending: TaskState.TASK_STATE_SUBMITTED,
  in_progress: TaskState.TASK_STATE_WORKING,
  completed: TaskState.TASK_STATE_COMPLETED,
  failed: TaskState.TASK_STATE_FAILED,
  cancelled: TaskState.TASK_STATE_CANCELED,
};

/**
 * The `workflow` agent: task trees over A2A. The message's data part holds the tasks (`{tasks}`,
 * a task list, or one task) or `{task_id}`; the tree runs as an execution whose id is the A2A
 * task id, with the root task's id as contextId. Each task's change is a status update carrying
 * the event data (`protocol: "a2a"`, `root_task_id`, …) in its metadata; the last one has the
 * tree's state, the error as its message, and the results as an artifact.
 */
export class WorkflowExecutor implements AgentExecutor {
  private readonly running = new Map<string, { rootId: string; principal: Principal }>();

  constructor(
    private readonly trees: TaskTreeService,
    private readonly executions: TaskExecutionService,
    private readonly streams: TaskEventStreams,
  ) {}

  async execute(request: RequestContext, bus: ExecutionEventBus): Promise<void> {
    const principal = (request.context.user as A2aUser).principal;
    let events: AsyncIterator<TaskEvent> | undefined;
    let started: Awaited<ReturnType<TaskExecutionService['execute']>>;
    try {
      const input = dataOf(request.userMessage);
      started = await this.executions.execute(principal, {
        executionId: request.taskId,
        taskId: input.task_id,
        tasks: input.tasks,
        beforeStart: async (execution) => {
          events = (await this.streams.open(execution.rootId, execution.id))[Symbol.asyncIterator]();
        },
      });
    } catch (error) {
      bus.publish(
        AgentEvent.message(reply(request, `Could not start the workflow: ${messageOf(error)}`, errorData(error))),
      );
      bus.finished();
      return;
    }
    const rootId = started.rootTaskId;
    const metadata = { protocol: 'a2a', root_task_id: rootId, user_id: started.execution.userId };
    this.running.set(request.taskId, { rootId, principal });
    bus.publish(
      AgentEvent.task({
        id: request.taskId,
        contextId: rootId,
        status: { state: TaskState.TASK_STATE_SUBMITTED, message: undefined, timestamp: new Date().toISOString() },
        history: [request.userMessage],
        artifacts: [],
        metadata,
      }),
    );
    try {
      for (let next = await events!.next(); !next.done; next = await events!.next()) {
        const { event, data } = next.value;
        if (event === 'final') {
          const tree = await this.trees.tree(principal, rootId);
          bus.publish(
            AgentEvent.artifactUpdate({
              taskId: request.taskId,
              contextId: request.contextId,
              artifact: results(tree),
              append: false,
              lastChunk: true,
              metadata,
            }),
          );
          const error =
            data.status === 'completed'
              ? undefined
              : reply(request, data.error ?? `The workflow ${data.status}`, undefined, rootId);
          this.status(bus, request, rootId, STATES[data.status], { ...metadata, ...data }, error);
          break;
        }
        this.status(bus, request, rootId, TaskState.TASK_STATE_WORKING, { ...metadata, ...data, event });
      }
    } finally {
      this.running.delete(request.taskId);
      bus.finished();
    }
  }

  async cancelTask(taskId: string, _bus: ExecutionEventBus): Promise<void> {
    const running = this.running.get(taskId);
    // The tree's cancellation flows back through its events: the execution ends cancelled.
    if (running) await this.executions.cancel(running.principal, running.rootId).catch(() => undefined);
  }

  private status(
    bus: ExecutionEventBus,
    request: RequestContext,
    contextId: string,
    state: TaskState,
    metadata: Record<string, unknown>,
    message?: Message,
  ) {
    bus.publish(
      AgentEvent.statusUpdate({
        taskId: request.taskId,
        contextId,
        status: { state, message, timestamp: new Date().toISOString() },
        metadata,
      }),
    );
  }
}

/** `{tasks}`, a task list, one task, or `{task_id}`, from the message's first data part. */
function dataOf(message: Message): { tasks?: ReturnType<typeof parseTaskList>; task_id?: string } {
  const part = message.parts.find((p) => p.content?.$case === 'data');
  const data: unknown = part?.content?.$case === 'data' ? part.content.value : undefined;
  if (data === undefined) throw DomainError.validation([{ field: 'parts', reason: 'need a data part with the tasks' }]);
  const object =
    typeof data === 'object' && data !== null && !Array.isArray(data) ? (data as Record<string, unknown>) : undefined;
  if (object && typeof object.task_id === 'string' && object.tasks === undefined) return { task_id: object.task_id };
  return { tasks: parseTaskList(data) };
}

function results(tree: Awaited<ReturnType<TaskTreeService['tree']>>): Artifact {
  const all: Record<string, unknown> = {};
  const walk = (node: typeof tree) => {
    all[node.task.id] = {
      name: node.task.name,
      status: node.task.status,
      result: node.task.result,
      error: node.task.error,
    };
    node.children.forEach(walk);
  };
  walk(tree);
  const data = {
    root_task_id: tree.task.id,
    status: tree.task.status,
    progress: tree.task.progress,
    task_count: Object.keys(all).length,
    result: tree.task.result,
    tasks: all,
  };
  return {
    artifactId: randomUUID(),
    name: 'results',
    description: 'The results of the task tree',
    parts: [
      { content: { $case: 'data', value: data }, metadata: undefined, filename: '', mediaType: 'application/json' },
    ],
    metadata: undefined,
    extensions: [],
  };
}

function reply(
  request: RequestContext,
  text: string,
  data?: Record<string, unknown>,
  contextId = request.contextId,
): Message {
  return {
    messageId: randomUUID(),
    contextId,
    taskId: request.taskId,
    role: Role.ROLE_AGENT,
    parts: [
      { content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: 'text/plain' },
      ...(data
        ? [
            {
              content: { $case: 'data' as const, value: data },
              metadata: undefined,
              filename: '',
              mediaType: 'application/json',
            },
          ]
        : []),
    ],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : 'the workflow could not start';
}

function errorData(error: unknown): Record<string, unknown> | undefined {
  return isDomainError(error) ? { code: error.code, ...(error.details ?? {}) } : undefined;
}
