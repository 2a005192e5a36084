import { Message, Role, TaskState } from '@a2a-js/sdk';
import { AgentEvent, AgentExecutionEvent, DefaultExecutionEventBus, RequestContext } from '@a2a-js/sdk/server';
import { randomUUID } from 'node:crypto';

/**
 * An execution's event bus - the SDK's own - that also keeps what the executor publishes, in
 * order, for DirectSend to hand to the SDK's ResultManager once the executor has returned.
 */
export class CollectingBus extends DefaultExecutionEventBus {
  readonly events: AgentExecutionEvent[] = [];
  /** The task's state as the last event that set one left it. */
  lastState: TaskState | undefined;

  override publish(event: AgentExecutionEvent): void {
    this.events.push(event);
    if (event.kind === 'task' || event.kind === 'statusUpdate')
      this.lastState = event.data.status?.state ?? this.lastState;
    super.publish(event);
  }
}

/**
 * What the SDK's DefaultRequestHandler publishes when a blocking execution throws (its
 * `_runExecutor`): the task, failed with the error's message, then the same status as an update.
 */
export function executionFailure(request: RequestContext, error: unknown): AgentExecutionEvent[] {
  const message = request.userMessage;
  const failure: Message = {
    role: Role.ROLE_AGENT,
    messageId: randomUUID(),
    taskId: request.taskId,
    contextId: message.contextId,
    parts: [
      {
        content: { $case: 'text', value: `Agent execution error: ${errorMessageOf(error)}` },
        mediaType: 'text/plain',
        filename: '',
        metadata: {},
      },
    ],
    metadata: {},
    extensions: [],
    referenceTaskIds: [],
  };
  const status = { state: TaskState.TASK_STATE_FAILED, message: failure, timestamp: new Date().toISOString() };
  const history = request.task?.history ? [...request.task.history] : [];
  if (!history.some((m) => m.messageId === message.messageId)) history.push(message);
  return [
    AgentEvent.task({ id: request.taskId, contextId: message.contextId, status, artifacts: [], history, metadata: {} }),
    AgentEvent.statusUpdate({ taskId: request.taskId, contextId: message.contextId, status, metadata: {} }),
  ];
}

/** The SDK's extractErrorMessage: an Error's message, a string as it is, anything else as JSON. */
function errorMessageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (error === null || error === undefined || typeof error === 'string') return String(error);
  try {
    return JSON.stringify(error);
  } catch {
    return Object.prototype.toString.call(error);
  }
}
