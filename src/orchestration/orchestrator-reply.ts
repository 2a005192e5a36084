import { Message, Task, TaskState } from '@a2a-js/sdk';
import { AgentEvent, ExecutionEventBus, RequestContext } from '@a2a-js/sdk/server';
import { agentTextMessage, continuedTask } from '../a2a/executors/agent-messages';
import type { OrchestrationFailure } from './orchestration-failure';

/** How the turn relates to the conversation, in an answer's `task_state` metadata. */
export type TaskStateLabel = 'fresh' | 'resumed' | 'completed';

/** Key of the OrchestrationError in a failed orchestrator task's metadata. */
export const ORCHESTRATION_ERROR_KEY = 'orchestration_error';

/** Publishes the orchestrator's answer in the form its callers read. */
export class Reply {
  constructor(
    private readonly request: RequestContext,
    private readonly bus: ExecutionEventBus,
    private readonly started: number,
  ) {}

  answer(text: string, agentsUsed: string[], state: TaskStateLabel): void {
    const metadata = this.metadata(agentsUsed, state);
    if (this.request.task) {
      // A client that names the task it answers gets that task completed, with the answer.
      this.status(TaskState.TASK_STATE_COMPLETED, text, metadata);
    } else {
      this.bus.publish(AgentEvent.message({ ...agentTextMessage(text, this.request.contextId), metadata }));
    }
    this.bus.finished();
  }

  ask(question: string, agentsUsed: string[], state: TaskStateLabel): void {
    this.open(TaskState.TASK_STATE_INPUT_REQUIRED, question, this.metadata(agentsUsed, state));
    this.bus.finished();
  }

  fail(failure: OrchestrationFailure): void {
    const metadata = {
      ...this.metadata(failure.partial?.agentsUsed ?? [], 'fresh'),
      [ORCHESTRATION_ERROR_KEY]: {
        ...failure.error,
        ...(failure.partial ? { partialResult: failure.partial.text } : {}),
      },
    };
    this.open(TaskState.TASK_STATE_FAILED, failure.error.userMessage, metadata);
    this.bus.finished();
  }

  /** A new task in `state`, or the client's task moved to it. */
  private open(state: TaskState, text: string, metadata: Record<string, unknown>): void {
    if (this.request.task) return this.status(state, text, metadata);
    const task: Task = {
      id: this.request.taskId,
      contextId: this.request.contextId,
      status: { state, message: this.statusMessage(text), timestamp: new Date().toISOString() },
      history: [this.request.userMessage],
      artifacts: [],
      metadata,
    };
    this.bus.publish(AgentEvent.task(task));
  }

  /** The client's task moved to `state`: the task first (a stream must start with it), then the update. */
  private status(state: TaskState, text: string, metadata: Record<string, unknown>): void {
    const continued = continuedTask(this.request);
    if (continued) this.bus.publish(AgentEvent.task(continued));
    this.bus.publish(
      AgentEvent.statusUpdate({
        taskId: this.request.taskId,
        contextId: this.request.contextId,
        status: { state, message: this.statusMessage(text), timestamp: new Date().toISOString() },
        metadata,
      }),
    );
  }

  private statusMessage(text: string): Message {
    return agentTextMessage(text, this.request.contextId, this.request.taskId);
  }

  private metadata(agentsUsed: string[], state: TaskStateLabel): Record<string, unknown> {
    return { agents_used: agentsUsed, execution_time_ms: Date.now() - this.started, task_state: state };
  }
}
