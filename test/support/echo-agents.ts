import { Artifact, Message, Part, Role, TaskState } from '@a2a-js/sdk';
import { AgentEvent, AgentExecutor, ExecutionEventBus, RequestContext } from '@a2a-js/sdk/server';
import { randomUUID } from 'node:crypto';

/**
 * Echo agents built only from the official SDK's server parts, answering in the three ways agents
 * do: a Message, a Task answered at once, a Task streamed in four events. The benchmarks serve
 * them on the SDK's reference server, in the hub and behind it; tests host them in the hub.
 */

/** What the echo agent puts before the text it received. */
export const ECHO_PREFIX = 'echo: ';

/** `message`: one Message, `echo: <text>` - no task at all, the cheapest answer A2A has. */
export class EchoExecutor implements AgentExecutor {
  async execute(context: RequestContext, bus: ExecutionEventBus): Promise<void> {
    bus.publish(
      AgentEvent.message({
        messageId: randomUUID(),
        contextId: context.contextId,
        taskId: '',
        role: Role.ROLE_AGENT,
        parts: [textPart(echoOf(context.userMessage))],
        metadata: undefined,
        extensions: [],
        referenceTaskIds: [],
      }),
    );
    bus.finished();
  }

  async cancelTask(): Promise<void> {
    // Nothing runs long enough to cancel.
  }
}

/**
 * `task`: the task answered at once, as agents that finish within the request do (LangGraph's
 * A2A server, for one): a single `task` event, already completed, with the echo as its artifact
 * and the user's message as its history.
 */
export class TaskEchoExecutor implements AgentExecutor {
  async execute(context: RequestContext, bus: ExecutionEventBus): Promise<void> {
    bus.publish(
      AgentEvent.task({
        id: context.taskId,
        contextId: context.contextId,
        status: { state: TaskState.TASK_STATE_COMPLETED, message: undefined, timestamp: new Date().toISOString() },
        history: [context.userMessage],
        artifacts: [echoArtifact(context.userMessage)],
        metadata: undefined,
      }),
    );
    bus.finished();
  }

  async cancelTask(): Promise<void> {
    // Nothing runs long enough to cancel.
  }
}

/**
 * `task-stream`: the task told in four events, as the SDK's sample agent tells it - submitted,
 * working, the artifact (one chunk, the last), completed - without the sample's pauses. A
 * blocking `message/send` still gets one answer: the task once it completed.
 */
export class StreamingTaskEchoExecutor implements AgentExecutor {
  async execute(context: RequestContext, bus: ExecutionEventBus): Promise<void> {
    const { taskId, contextId } = context;
    const status = (state: TaskState) => ({ state, message: undefined, timestamp: new Date().toISOString() });
    bus.publish(
      AgentEvent.task({
        id: taskId,
        contextId,
        status: status(TaskState.TASK_STATE_SUBMITTED),
        history: [context.userMessage],
        artifacts: [],
        metadata: undefined,
      }),
    );
    bus.publish(
      AgentEvent.statusUpdate({ taskId, contextId, status: status(TaskState.TASK_STATE_WORKING), metadata: undefined }),
    );
    bus.publish(
      AgentEvent.artifactUpdate({
        taskId,
        contextId,
        artifact: echoArtifact(context.userMessage),
        append: false,
        lastChunk: true,
        metadata: undefined,
      }),
    );
    bus.publish(
      AgentEvent.statusUpdate({
        taskId,
        contextId,
        status: status(TaskState.TASK_STATE_COMPLETED),
        metadata: undefined,
      }),
    );
    bus.finished();
  }

  async cancelTask(): Promise<void> {
    // Nothing runs long enough to cancel.
  }
}

/** ECHO_PREFIX and the text parts of the message, joined by spaces. */
function echoOf(message: Message): string {
  const text = message.parts.flatMap((part) => (part.content?.$case === 'text' ? [part.content.value] : [])).join(' ');
  return `${ECHO_PREFIX}${text}`;
}

function echoArtifact(message: Message): Artifact {
  return {
    artifactId: randomUUID(),
    name: 'echo',
    description: '',
    parts: [textPart(echoOf(message))],
    metadata: undefined,
    extensions: [],
  };
}

function textPart(text: string): Part {
  return { content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: 'text/plain' };
}
