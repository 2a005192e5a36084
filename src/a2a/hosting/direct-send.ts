import { Message, SendMessageRequest, StreamResponse, Task, TaskState } from '@a2a-js/sdk';
import { A2AError, RequestMalformedError } from '@a2a-js/sdk/errors';
import {
  AgentExecutionEvent,
  AgentExecutor,
  ExecutionEventBusManager,
  PushNotificationSender,
  RequestContext,
  ResultManager,
  ServerCallContext,
  TaskStore,
} from '@a2a-js/sdk/server';
import { Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { CollectingBus, executionFailure } from './collecting-bus';
import { ownedRequestContext } from './owned-request-context';

const logger = new Logger('A2A');

/** States after which the SDK keeps a task's event bus open, for the turn that continues it and for cancels. */
const INTERRUPTED: ReadonlySet<TaskState | undefined> = new Set([
  TaskState.TASK_STATE_INPUT_REQUIRED,
  TaskState.TASK_STATE_AUTH_REQUIRED,
]);

/**
 * A blocking SendMessage that starts a new task, answered without the SDK's event machinery
 * (DefaultRequestHandler's event bus, ExecutionEventQueue, the event loop that maps each event
 * to a stream response and reloads the task for it) - for an agent whose executor has published
 * everything by the time it returns, such as a remote agent that does not stream to the hub.
 *
 * What the SDK decides stays the SDK's: the task is made from the executor's events by its own
 * ResultManager (merge, the caller's message in the history, saves to our task store), each event
 * goes to the push sender as the SDK would send it, an executor that throws ends the task as the
 * SDK ends it, and a task left waiting for input or authentication keeps an open event bus, so
 * the turn that continues it and a cancel find it as they would after the SDK's own path.
 *
 * Only `accepts` requests take this path; the rest go to the SDK unchanged:
 * - streaming calls and non-blocking ones (returnImmediately): the caller sees the task while it runs;
 * - a message naming a task: the task is loaded, checked (not over, same context) and its history
 *   saved before the agent runs, and a cancel or resubscribe may reach it meanwhile;
 * - a push config on the request: the SDK stores it before the agent runs;
 * - reference tasks: the SDK loads them for the executor.
 * A new task's id is made here and reaches nobody before the answer, so nothing can ask for it
 * - cancel, resubscribe, tasks/get - while the agent works: there is no running state to share.
 */
export class DirectSend {
  constructor(
    private readonly executor: AgentExecutor,
    private readonly store: TaskStore,
    private readonly buses: ExecutionEventBusManager,
    /** The agent's push sender, when its card offers push notifications (as the SDK decides). */
    private readonly push: PushNotificationSender | undefined,
  ) {}

  accepts(params: SendMessageRequest): boolean {
    const message = params.message;
    const configuration = params.configuration;
    return (
      message !== undefined &&
      !message.taskId &&
      message.referenceTaskIds.length === 0 &&
      configuration?.returnImmediately !== true &&
      !configuration?.taskPushNotificationConfig
    );
  }

  async send(params: SendMessageRequest, context: ServerCallContext): Promise<Message | Task> {
    const incoming = params.message;
    if (!incoming?.messageId) throw new RequestMalformedError('message.messageId is required.');
    const request = newTaskRequest(params, incoming, context);
    const bus = new CollectingBus();
    try {
      await this.executor.execute(request, bus);
    } catch (error) {
      for (const event of executionFailure(request, error)) bus.publish(event);
    }
    const [first, ...more] = bus.events;
    const result =
      more.length === 0 && first && isOwnResult(first, request.taskId)
        ? await this.lone(first, incoming, context)
        : await this.replay(bus.events, incoming, context);
    if (!result) throw new A2AError('Agent execution finished without a result, and no task context found.');
    if ('messageId' in result) return result;
    if (INTERRUPTED.has(bus.lastState)) this.buses.createOrGetByTaskId(request.taskId, context);
    const historyLength = params.configuration?.historyLength;
    if (historyLength !== undefined) result.history = historyLength <= 0 ? [] : result.history.slice(-historyLength);
    return result;
  }

  /**
   * The answer nearly every call gets - one Message, or one Task event for the new task - made as
   * the SDK's ResultManager makes it (a new task has no stored version to merge with; the
   * caller's message leads its history unless the agent's history has it), without its deep
   * copies: the objects are this call's own.
   */
  private async lone(
    event: AgentExecutionEvent,
    incoming: Message,
    context: ServerCallContext,
  ): Promise<Message | Task> {
    if (event.kind !== 'task') {
      this.notify(event, context, undefined);
      return event.data as Message;
    }
    const task = { ...event.data };
    if (!task.history.some((m) => m.messageId === incoming.messageId)) task.history = [incoming, ...task.history];
    await this.store.save(task, context);
    this.notify(event, context, task);
    return task;
  }

  /** Any other sequence of events (a failure, several updates) through the SDK's ResultManager, as the SDK would. */
  private async replay(
    events: AgentExecutionEvent[],
    incoming: Message,
    context: ServerCallContext,
  ): Promise<Message | Task | undefined> {
    const results = new ResultManager(this.store, context);
    results.setContext(incoming);
    for (const event of events) {
      await results.processEvent(event);
      this.notify(event, context, results.getCurrentTask());
    }
    return results.getFinalResult();
  }

  /**
   * Hands the event to the push sender as the SDK does - a task event as the task now stands -
   * and does not wait for it. The task it gets is a copy the answer's own changes (the history
   * cut to historyLength) cannot reach; nothing changes the objects within it once the event is
   * handled.
   */
  private notify(event: AgentExecutionEvent, context: ServerCallContext, current: Task | undefined): void {
    if (!this.push) return;
    const task = current && { ...current };
    const response: StreamResponse = { payload: streamPayload(event, task) };
    this.push.send(response, context, task).catch((error: unknown) => {
      logger.warn(`Failed to send a push notification: ${(error as Error)?.message ?? String(error)}`);
    });
  }
}

/** A Message, or the task event of the call's own task. */
function isOwnResult(event: AgentExecutionEvent, taskId: string): boolean {
  return event.kind === 'message' || (event.kind === 'task' && event.data.id === taskId);
}

/**
 * The request context the SDK makes for a message that names no task: a new task id, the
 * message's context id or a new one, both written into the message the agent gets (a copy of
 * the caller's: `incoming` itself goes into the task's history). The hub's
 * cards declare no extensions, so of those the caller asked for none is active.
 */
function newTaskRequest(params: SendMessageRequest, incoming: Message, context: ServerCallContext): RequestContext {
  if (context.requestedExtensions) context.setRequestedExtensions([]);
  const taskId = randomUUID();
  const contextId = incoming.contextId || randomUUID();
  const request = { ...params, message: { ...incoming, contextId, taskId } };
  return ownedRequestContext(request, taskId, contextId, context);
}

function streamPayload(event: AgentExecutionEvent, current: Task | undefined): StreamResponse['payload'] {
  switch (event.kind) {
    case 'task':
      return { $case: 'task', value: current?.id === event.data.id ? current : event.data };
    case 'message':
      return { $case: 'message', value: event.data };
    case 'statusUpdate':
      return { $case: 'statusUpdate', value: event.data };
    case 'artifactUpdate':
      return { $case: 'artifactUpdate', value: event.data };
  }
}
