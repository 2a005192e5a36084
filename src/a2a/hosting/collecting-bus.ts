import { Message, Role, TaskState } from '@a2a-js/sdk';
import { AgentEvent, AgentExecutionEvent, ExecutionEventBus, RequestContext } from '@a2a-js/sdk/server';
import { randomUUID } from 'node:crypto';

type EventListener = (event: AgentExecutionEvent) => void;
type FinishedListener = () => void;

/**
 * An execution's event bus that keeps what the executor publishes, in order, for DirectSend to
 * hand to the SDK's ResultManager once the executor has returned. Listeners are called as on the
 * SDK's bus; nothing else listens.
 */
export class CollectingBus implements ExecutionEventBus {
  readonly events: AgentExecutionEvent[] = [];
  /** The task's state as the last event that set one left it (the SDK's bus keeps this too). */
  lastState: TaskState | undefined;
  private readonly eventListeners: { listener: EventListener; once: boolean }[] = [];
  private readonly finishedListeners: { listener: FinishedListener; once: boolean }[] = [];

  publish(event: AgentExecutionEvent): void {
    this.events.push(event);
    if (event.kind === 'task' || event.kind === 'statusUpdate')
      this.lastState = event.data.status?.state ?? this.lastState;
    for (const entry of [...this.eventListeners]) {
      if (entry.once) this.remove(this.eventListeners, entry.listener);
      entry.listener(event);
    }
  }

  finished(): void {
    for (const entry of [...this.finishedListeners]) {
      if (entry.once) this.remove(this.finishedListeners, entry.listener);
      entry.listener();
    }
  }

  on(eventName: 'event', listener: EventListener): this;
  on(eventName: 'finished', listener: FinishedListener): this;
  on(eventName: 'event' | 'finished', listener: EventListener | FinishedListener): this {
    this.listeners(eventName).push({ listener: listener as EventListener & FinishedListener, once: false });
    return this;
  }

  once(eventName: 'event', listener: EventListener): this;
  once(eventName: 'finished', listener: FinishedListener): this;
  once(eventName: 'event' | 'finished', listener: EventListener | FinishedListener): this {
    this.listeners(eventName).push({ listener: listener as EventListener & FinishedListener, once: true });
    return this;
  }

  off(eventName: 'event', listener: EventListener): this;
  off(eventName: 'finished', listener: FinishedListener): this;
  off(eventName: 'event' | 'finished', listener: EventListener | FinishedListener): this {
    this.remove(this.listeners(eventName), listener);
    return this;
  }

  removeAllListeners(eventName?: 'event' | 'finished'): this {
    if (eventName !== 'finished') this.eventListeners.length = 0;
    if (eventName !== 'event') this.finishedListeners.length = 0;
    return this;
  }

  private listeners(eventName: 'event' | 'finished'): { listener: EventListener & FinishedListener; once: boolean }[] {
    return (eventName === 'event' ? this.eventListeners : this.finishedListeners) as {
      listener: EventListener & FinishedListener;
      once: boolean;
    }[];
  }

  private remove(entries: { listener: unknown }[], listener: unknown): void {
    const index = entries.findIndex((entry) => entry.listener === listener);
    if (index !== -1) entries.splice(index, 1);
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
