import { Message, SendMessageRequest, StreamResponse, Task, TaskState } from '@a2a-js/sdk';
import type { Client } from '@a2a-js/sdk/client';
import { TaskNotCancelableError, UnsupportedOperationError } from '@a2a-js/sdk/errors';
import { AgentEvent, AgentExecutor, ExecutionEventBus, RequestContext } from '@a2a-js/sdk/server';
import { agentTextMessage, continuedTask } from '../../a2a/executors/agent-messages';
import { ownerOf } from '../../a2a/hosting/a2a-user';
import { continuesConversation } from '../../a2a/hosting/call-state';
import { outboundFailureReason } from '../../platform/net/outbound-failures';
import { isTerminal } from '../../a2a/store/task-merge';
import { AgentThreads, RemoteTaskLink } from './agent-threads';
import { REMOTE_FAILURE_KEY, remoteFailure } from './remote-failure';

/**
 * Hosts a remote A2A agent behind the hub: each request is sent on with the official SDK client
 * (streaming when the remote streams), and what comes back is relayed under the hub's own task
 * and context ids - so the hub keeps its records, push notifications and resubscription, and a
 * client on any transport or version reaches an agent that may speak only v0.3 JSON-RPC.
 * Cancels are forwarded to the remote task.
 */
export class RemoteAgentExecutor implements AgentExecutor {
  constructor(
    private readonly agentId: string,
    private readonly client: () => Promise<Client>,
    private readonly threads: AgentThreads,
    private readonly streaming: boolean,
  ) {}

  async execute(context: RequestContext, bus: ExecutionEventBus): Promise<void> {
    const owner = ownerOf(context.context);
    // Each turn renews the conversation's links (reading one renews it), so they last as long as
    // the conversation does. A message that names no context or task starts a new conversation:
    // there is nothing to look up.
    const link = context.task ? await this.threads.remoteTask(this.agentId, context.taskId) : undefined;
    let remoteContextId = link?.remoteContextId;
    if (link && remoteContextId) {
      await this.threads.linkContext(this.agentId, owner, context.contextId, remoteContextId);
    } else if (!link && continuesConversation(context.context)) {
      remoteContextId = await this.threads.remoteContext(this.agentId, owner, context.contextId);
    }
    const request: SendMessageRequest = {
      tenant: '',
      message: { ...context.userMessage, contextId: remoteContextId ?? '', taskId: link?.remoteTaskId ?? '' },
      // The hub answers push notifications itself; the remote is not told where to send them.
      configuration: context.request.configuration
        ? { ...context.request.configuration, taskPushNotificationConfig: undefined, returnImmediately: false }
        : undefined,
      metadata: context.request.metadata,
    };
    const relay = new Relay(this.agentId, owner, context, bus, this.threads, link, remoteContextId);
    try {
      const client = await this.client();
      if (!this.streaming || !(await this.streamed(client, request, relay))) {
        const result = await client.sendMessage(request);
        if (isMessage(result)) await relay.message(result);
        else relay.task(result);
      }
    } catch (error) {
      // A failed task, saying why in words and in its metadata; its caller need not learn where
      // the agent lives.
      if (!relay.fail(describeFailure(error))) throw error;
    }
    bus.finished();
  }

  /**
   * Relays the turn as the remote streams it. False when the remote refused to stream it before
   * sending anything (UnsupportedOperationError): the turn is then sent again as a plain message.
   * The official SDK 1.x refuses its own agent's stream when a continued task's first event is a
   * status update rather than the task ("Received statusUpdate before initial 'Message'/'Task'
   * event") and keeps the task as it was; a plain send takes the same events. A remote that
   * declares streaming but cannot stream is served the same way.
   */
  private async streamed(client: Client, request: SendMessageRequest, relay: Relay): Promise<boolean> {
    try {
      for await (const event of client.sendMessageStream(request)) await relay.stream(event);
      return true;
    } catch (error) {
      if (relay.received || !(error instanceof UnsupportedOperationError)) throw error;
      return false;
    }
  }

  async cancelTask(taskId: string, bus: ExecutionEventBus): Promise<void> {
    const link = await this.threads.remoteTask(this.agentId, taskId);
    if (!link) throw new TaskNotCancelableError(`Task ${taskId} never reached the remote agent`);
    const remote = await (await this.client()).cancelTask({ tenant: '', id: link.remoteTaskId, metadata: undefined });
    bus.publish(
      AgentEvent.statusUpdate({
        taskId,
        contextId: link.contextId,
        status: remote.status
          ? { ...remote.status, message: undefined }
          : { state: TaskState.TASK_STATE_CANCELED, message: undefined, timestamp: new Date().toISOString() },
        metadata: undefined,
      }),
    );
  }
}

/** Rewrites remote events into the hub's ids and publishes them, starting the task as the SDK requires. */
class Relay {
  private started = false;
  /** The remote answered with a message: the exchange is over, there is no task to fail. */
  private answered = false;
  /** Whether the remote has sent anything on its stream. */
  received = false;

  constructor(
    private readonly agentId: string,
    private readonly owner: string,
    private readonly context: RequestContext,
    private readonly bus: ExecutionEventBus,
    private readonly threads: AgentThreads,
    /** What is already recorded, so each link is written once, not on every event. */
    private linkedTask: RemoteTaskLink | undefined,
    private linkedContext: string | undefined,
  ) {}

  async stream(event: StreamResponse): Promise<void> {
    this.received = true;
    const payload = event.payload;
    switch (payload?.$case) {
      case 'task':
        this.task(payload.value);
        return;
      case 'message':
        return this.message(payload.value);
      case 'statusUpdate': {
        const linked = this.link(payload.value.taskId, payload.value.contextId);
        this.ensureStarted();
        this.bus.publish(
          AgentEvent.statusUpdate({
            ...payload.value,
            taskId: this.context.taskId,
            contextId: this.context.contextId,
            status: payload.value.status && {
              ...payload.value.status,
              message: payload.value.status.message && this.local(payload.value.status.message),
            },
          }),
        );
        return linked;
      }
      case 'artifactUpdate': {
        const linked = this.link(payload.value.taskId, payload.value.contextId);
        this.ensureStarted();
        this.bus.publish(
          AgentEvent.artifactUpdate({
            ...payload.value,
            taskId: this.context.taskId,
            contextId: this.context.contextId,
          }),
        );
        return linked;
      }
      default:
        return;
    }
  }

  task(task: Task): void {
    // A task that is over can be neither continued nor cancelled: only its context is worth a link.
    // The links are not waited for: they go to the store with the write that follows them on the
    // same connection and that the answer waits for - the task's record, or the orchestrator's
    // conversation - one write instead of one each (a failed link is logged by AgentThreads).
    const linked = isTerminal(task.status?.state)
      ? this.linkContext(task.contextId)
      : this.link(task.id, task.contextId);
    this.started = true;
    this.bus.publish(
      AgentEvent.task({
        ...task,
        id: this.context.taskId,
        contextId: this.context.contextId,
        history: task.history.map((m) => this.local(m)),
        status: task.status && { ...task.status, message: task.status.message && this.local(task.status.message) },
      }),
    );
    void linked;
  }

  async message(message: Message): Promise<void> {
    await this.linkContext(message.contextId);
    this.started = true;
    this.answered = true;
    this.bus.publish(AgentEvent.message(this.local(message)));
  }

  /**
   * Ends the task as failed: its status message says why in words, its metadata as a
   * RemoteFailure (REMOTE_FAILURE_KEY). False when the remote already answered with a message.
   */
  fail(reason: string): boolean {
    if (this.answered) return false;
    this.ensureStarted();
    const { taskId, contextId } = this.context;
    this.bus.publish(
      AgentEvent.statusUpdate({
        taskId,
        contextId,
        status: {
          state: TaskState.TASK_STATE_FAILED,
          message: agentTextMessage(remoteFailureText(this.agentId, reason), contextId, taskId),
          timestamp: new Date().toISOString(),
        },
        metadata: { [REMOTE_FAILURE_KEY]: remoteFailure(reason) },
      }),
    );
    return true;
  }

  /**
   * A remote that starts with an update gets the task published first, as the SDK requires: the
   * task the turn continues as the hub knows it (its state, history with this message, artifacts),
   * or a new one, submitted.
   */
  private ensureStarted(): void {
    if (this.started) return;
    this.started = true;
    const continued = continuedTask(this.context);
    if (continued) {
      this.bus.publish(AgentEvent.task(continued));
      return;
    }
    this.bus.publish(
      AgentEvent.task({
        id: this.context.taskId,
        contextId: this.context.contextId,
        status: { state: TaskState.TASK_STATE_SUBMITTED, message: undefined, timestamp: new Date().toISOString() },
        history: [this.context.userMessage],
        artifacts: [],
        metadata: undefined,
      }),
    );
  }

  /** Both links, sent together. */
  private async link(remoteTaskId: string, remoteContextId: string): Promise<void> {
    if (!remoteTaskId) return;
    const writes = [this.linkContext(remoteContextId)];
    if (this.linkedTask?.remoteTaskId !== remoteTaskId || this.linkedTask.remoteContextId !== remoteContextId) {
      this.linkedTask = { remoteTaskId, remoteContextId, contextId: this.context.contextId };
      writes.push(this.threads.linkTask(this.agentId, this.context.taskId, this.linkedTask));
    }
    await Promise.all(writes);
  }

  private async linkContext(remoteContextId: string): Promise<void> {
    if (!remoteContextId || remoteContextId === this.linkedContext) return;
    this.linkedContext = remoteContextId;
    await this.threads.linkContext(this.agentId, this.owner, this.context.contextId, remoteContextId);
  }

  private local(message: Message): Message {
    return { ...message, contextId: this.context.contextId, taskId: message.taskId ? this.context.taskId : '' };
  }
}

/** How a failed call to a remote agent reads, in the failed task's status message. */
function remoteFailureText(agentId: string, reason: string): string {
  return `Remote agent ${agentId} failed: ${reason}`;
}

/** Network failures by their reason (connection refused, timeout, ...); the agent's own errors by their message. */
function describeFailure(error: unknown): string {
  const reason = outboundFailureReason(error);
  if (reason !== 'request failed') return reason;
  return error instanceof Error ? error.message : String(error);
}

function isMessage(result: Message | Task): result is Message {
  return 'messageId' in result && 'role' in result;
}
