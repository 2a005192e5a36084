import { Message, SendMessageRequest, StreamResponse, Task } from '@a2a-js/sdk';
import type { ServerCallContext } from '@a2a-js/sdk/server';
import { Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { HubEndpointsResolver } from '../a2a/card/hub-endpoints';
import { userTextMessage } from '../a2a/executors/agent-messages';
import { A2aUser } from '../a2a/hosting/a2a-user';
import { AgentHost, HostedAgent } from '../a2a/hosting/agent-host';
import { callContextFor } from '../a2a/hosting/call-context';
import { PUSH_EVENTS, PushEvent } from '../a2a/push/entities/push-subscription.entity';
import { PushSubscriptions } from '../a2a/push/push-subscriptions';
import { webhookUrlProblem } from '../a2a/push/webhook-url';
import { A2aTaskRepository } from '../a2a/store/a2a-task.repository';
import { stateName, stateNameOf } from '../a2a/task-state-names';
import type { Principal } from '../platform/auth/principal';
import { AppConfig } from '../platform/config/app-config';
import { isDomainError } from '../platform/errors/domain-error';
import { ErrorCode } from '../platform/errors/error-code';
import { OutboundHttp } from '../platform/net/outbound-http';
import { AgentRepository } from '../registry/agent.repository';
import { RegistryService } from '../registry/registry.service';
import { remoteFailureOf } from '../registry/remote/remote-failure';
import { RemoteAgentHosting } from '../registry/remote/remote-agent-hosting';
import { isFinal, messageView, MessageView, taskView, TaskView } from './a2a-views';

/** A tool failure whose text the MCP host shows as it is. */
export class ToolError extends Error {}

/** Called with each update of a subscribed task; `done` once it has finished or the stream ended. */
export type TaskListener = (view: TaskView, done: boolean) => void;

const MAX_LIST = 100;

/**
 * The A2A client tools behind the MCP face: the registry and the hosted agents' own SDK request
 * handlers, as REST and gRPC use them - so a message to a remote agent goes through the hub's
 * proxy, and its task is one of the hub's task records (listed, read, cancelled and resubscribed
 * like any other, on any replica).
 */
@Injectable()
export class McpToolsService implements OnApplicationShutdown {
  private readonly logger = new Logger('McpTools');
  /** Streams that go on after their tool call answered; stopped at shutdown. */
  private readonly background = new Set<AsyncGenerator<StreamResponse, void, undefined>>();

  constructor(
    private readonly registry: RegistryService,
    private readonly agents: AgentRepository,
    private readonly host: AgentHost,
    private readonly tasks: A2aTaskRepository,
    private readonly hosting: RemoteAgentHosting,
    private readonly endpoints: HubEndpointsResolver,
    private readonly config: AppConfig,
    private readonly pushSubscriptions: PushSubscriptions,
    @Inject(OutboundHttp) private readonly outbound: OutboundHttp,
  ) {}

  async resolveAgentCard(baseUrl: string) {
    const existing = await this.agents.findByBaseUrl(baseUrl.replace(/\/+$/, ''));
    const record = existing ? await this.registry.refresh(existing.id) : await this.registry.register({ baseUrl });
    return withoutKind(record);
  }

  validateAgentCard(baseUrl: string) {
    return this.registry.validate(baseUrl);
  }

  async listRemoteAgents() {
    return (await this.agents.list()).map((a) => ({
      agent_id: a.id,
      name: a.name,
      base_url: a.baseUrl,
      status: a.status,
    }));
  }

  /**
   * An agent-wide webhook for the caller: every update of their tasks with the agent that is one of
   * `events` is POSTed to it (A2A v1.0 StreamResponse JSON) through the SSRF-guarded sender, with
   * retries, by whichever replica runs the task. Configuring the same URL again changes its events.
   */
  async configurePushNotifications(
    principal: Principal,
    agentId: string,
    webhookUrl: string,
    events: readonly PushEvent[] = PUSH_EVENTS,
  ) {
    this.agent(agentId);
    const problem = await webhookUrlProblem(this.outbound, webhookUrl);
    if (problem) throw new ToolError(`webhook_url ${problem}`);
    const now = new Date();
    const subscription = await this.pushSubscriptions.subscribe({
      id: randomUUID(),
      agentId,
      owner: principal.owner,
      url: webhookUrl,
      events: PUSH_EVENTS.filter((event) => events.includes(event)),
      createdAt: now,
      updatedAt: now,
    });
    return {
      config_id: subscription.id,
      agent_id: agentId,
      webhook_url: webhookUrl,
      events: subscription.events,
      active: true,
    };
  }

  async deletePushNotifications(principal: Principal, configId: string) {
    if (!(await this.pushSubscriptions.unsubscribe(principal.owner, configId)))
      throw new ToolError(`Push notification config not found: ${configId}`);
    return { config_id: configId, active: false };
  }

  async getExtendedAgentCard(agentId: string) {
    this.agent(agentId);
    const record = await this.registry.getExtended(agentId, this.hostEndpoints());
    const extended = await this.hosting.extendedCard(agentId).catch((error: unknown) => {
      this.logger.warn(`Extended card of ${agentId}: ${(error as Error).message}`);
      return undefined;
    });
    return { ...withoutKind(record), ...(extended ? { extended_card: extended } : {}) };
  }

  async sendMessage(principal: Principal, agentId: string, text: string): Promise<TaskView | MessageView> {
    const agent = this.agent(agentId);
    const context = this.callContext(principal, agentId);
    const timeoutMs = this.config.mcp.requestTimeoutMs;
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), timeoutMs)));
    try {
      const sent = agent.handler.sendMessage(request(text), context);
      const result = await Promise.race([sent, deadline]);
      if (result === 'timeout') {
        sent.catch(() => undefined);
        throw new ToolError('Request failed: timeout');
      }
      return answered(result);
    } catch (error) {
      throw requestFailure(error);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Starts a real message/stream; answers at its first event, and the stream keeps updating the task record. */
  async sendStreamingMessage(principal: Principal, agentId: string, text: string) {
    const agent = this.agent(agentId);
    const stream = agent.handler.sendMessageStream(request(text), this.callContext(principal, agentId));
    let first: IteratorResult<StreamResponse, void>;
    try {
      first = await stream.next();
    } catch (error) {
      throw requestFailure(error);
    }
    const payload = first.done ? undefined : first.value.payload;
    if (payload?.$case === 'message') return { ...messageView(payload.value), streaming: false };
    const taskId =
      payload?.$case === 'task'
        ? payload.value.id
        : payload?.value && 'taskId' in payload.value
          ? payload.value.taskId
          : undefined;
    if (!taskId) throw new ToolError('Request failed: the agent answered nothing');
    this.drain(stream);
    return {
      task_id: taskId,
      status: { state: 'working' },
      streaming: true,
      message: `Streaming from ${agentId}; follow it with get_task or subscribe_to_task.`,
    };
  }

  async getTask(principal: Principal, taskId: string): Promise<TaskView> {
    const { agent, context } = await this.locate(principal, taskId);
    const task = await agent.handler.getTask({ tenant: '', id: taskId, historyLength: undefined }, context);
    if (isFinal(task.status?.state) || agent.profile.kind !== 'remote') return taskView(task);
    // Still running: the remote agent's own view is the freshest (a non-streaming agent's task moves only there).
    const remote = await this.hosting.remoteTask(agent.id, taskId).catch(() => undefined);
    return taskView(
      remote
        ? { ...task, status: remote.status, artifacts: remote.artifacts.length ? remote.artifacts : task.artifacts }
        : task,
    );
  }

  async listTasks(principal: Principal, limit = 20) {
    const { rows } = await this.tasks.page({ owner: principal.owner, limit: Math.min(limit, MAX_LIST) });
    return rows.map((row) => ({
      task_id: row.taskId,
      agent_id: row.agentId,
      context_id: row.contextId,
      state: stateNameOf(row.state),
      updated_at: row.updatedAt.toISOString(),
    }));
  }

  async cancelTask(principal: Principal, taskId: string) {
    const { agent, context } = await this.locate(principal, taskId);
    try {
      const task = await agent.handler.cancelTask({ tenant: '', id: taskId, metadata: undefined }, context);
      return { task_id: taskId, status: stateName(task.status?.state) };
    } catch (error) {
      throw requestFailure(error);
    }
  }

  /** A real resubscribe: the current state now, every update to `listener` until the task ends or `signal` aborts. */
  async subscribeToTask(principal: Principal, taskId: string, listener: TaskListener, signal: AbortSignal) {
    const { agent, context } = await this.locate(principal, taskId);
    const current = await agent.handler.getTask({ tenant: '', id: taskId, historyLength: undefined }, context);
    if (isFinal(current.status?.state)) {
      return {
        task_id: taskId,
        subscription: 'ended',
        current_state: stateName(current.status?.state),
        message: 'The task has already finished; nothing more will come.',
      };
    }
    const stream = agent.handler.resubscribe({ tenant: '', id: taskId }, context);
    signal.addEventListener('abort', () => void stream.return(undefined).catch(() => undefined), { once: true });
    this.drain(stream, async (event) => {
      const payload = event.payload;
      if (payload?.$case !== 'task' && payload?.$case !== 'statusUpdate' && payload?.$case !== 'artifactUpdate') return;
      // The stored task may not have this event yet: its status is taken from the event itself.
      const stored = await agent.handler.getTask({ tenant: '', id: taskId, historyLength: undefined }, context);
      const status = payload.$case === 'artifactUpdate' ? stored.status : (payload.value.status ?? stored.status);
      listener(taskView({ ...stored, status }), isFinal(status?.state));
    });
    return {
      task_id: taskId,
      subscription: 'active',
      current_state: stateName(current.status?.state),
      message: `Subscribed: updates arrive as notifications (resource switchboard://tasks/${taskId}) until the task ends.`,
    };
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.all([...this.background].map((stream) => stream.return(undefined).catch(() => undefined)));
  }

  private agent(agentId: string): HostedAgent {
    const agent = this.host.get(agentId);
    if (!agent) throw new ToolError(`Agent not found: ${agentId}`);
    return agent;
  }

  /** The hosted agent a task of this caller belongs to. */
  private async locate(
    principal: Principal,
    taskId: string,
  ): Promise<{ agent: HostedAgent; context: ServerCallContext }> {
    const row = (await this.tasks.findByTaskId(taskId)).find((r) => r.owner === principal.owner);
    const agent = row && this.host.get(row.agentId);
    if (!row || !agent) throw new ToolError(`Task not found: ${taskId}`);
    return { agent, context: this.callContext(principal, agent.id) };
  }

  private callContext(principal: Principal, agentId: string): ServerCallContext {
    return callContextFor(agentId, new A2aUser(principal, this.hostEndpoints().httpBase));
  }

  private hostEndpoints() {
    return this.endpoints.configured();
  }

  /** Reads a stream to its end in the background (what it says is stored by the SDK as it goes). */
  private drain(
    stream: AsyncGenerator<StreamResponse, void, undefined>,
    onEvent?: (event: StreamResponse) => Promise<void>,
  ): void {
    this.background.add(stream);
    void (async () => {
      try {
        for await (const event of stream) await onEvent?.(event);
      } catch (error) {
        this.logger.warn(`A background A2A stream ended with an error: ${(error as Error).message}`);
      } finally {
        this.background.delete(stream);
      }
    })();
  }
}

function request(text: string): SendMessageRequest {
  return { tenant: '', message: userTextMessage(text, ''), configuration: undefined, metadata: undefined };
}

/** The agent's answer; a proxy failure (the agent unreachable, too slow) is a tool error. */
function answered(result: Message | Task): TaskView | MessageView {
  if ('messageId' in result && 'role' in result) return messageView(result);
  const failure = remoteFailureOf(result.metadata);
  if (failure) throw new ToolError(`Request failed: ${failure.reason}`);
  return taskView(result);
}

function requestFailure(error: unknown): Error {
  if (error instanceof ToolError) return error;
  const message = error instanceof Error ? error.message : String(error);
  if (isDomainError(error) && error.code === ErrorCode.NOT_FOUND) return new ToolError(message);
  return new ToolError(`Request failed: ${message}`);
}

function withoutKind<T extends { kind?: unknown }>(record: T): Omit<T, 'kind'> {
  const { kind, ...rest } = record;
  void kind;
  return rest;
}
