import type {
  AgentCard,
  CancelTaskRequest,
  DeleteTaskPushNotificationConfigRequest,
  GetExtendedAgentCardRequest,
  GetTaskPushNotificationConfigRequest,
  GetTaskRequest,
  ListTaskPushNotificationConfigsRequest,
  ListTaskPushNotificationConfigsResponse,
  ListTasksRequest,
  ListTasksResponse,
  Message,
  SendMessageRequest,
  StreamResponse,
  SubscribeToTaskRequest,
  Task,
  TaskPushNotificationConfig,
} from '@a2a-js/sdk';
import type { A2ARequestHandler, ServerCallContext } from '@a2a-js/sdk/server';
import { DEFAULT_AGENT_ID } from '../agent-profile';
import { AgentHost } from '../hosting/agent-host';
import { AGENT_ID_STATE_KEY } from '../hosting/call-context';

/** The agent a gRPC call is for: the v1.0 `tenant`, else the `x-agent-id` metadata, else the default. */
export function grpcAgentId(tenant: string | undefined, agentHeader: unknown): string {
  const header = Array.isArray(agentHeader) ? agentHeader[0] : agentHeader;
  return tenant || (typeof header === 'string' && header.trim()) || DEFAULT_AGENT_ID;
}

/**
 * One A2ARequestHandler for the whole gRPC port: every call goes to the hosted agent named in
 * its context (see grpcAgentId). `getAgentCard()` has no context - the SDK calls it only to
 * check the requested protocol version - so it answers with the default agent's card, which
 * declares GRPC for both versions.
 */
export class RoutingRequestHandler implements A2ARequestHandler {
  constructor(private readonly host: AgentHost) {}

  getAgentCard(): Promise<AgentCard> {
    return this.host.require(DEFAULT_AGENT_ID).handler.getAgentCard();
  }

  getAuthenticatedExtendedAgentCard(params: GetExtendedAgentCardRequest, ctx: ServerCallContext): Promise<AgentCard> {
    return this.target(ctx).getAuthenticatedExtendedAgentCard(params, ctx);
  }

  sendMessage(params: SendMessageRequest, ctx: ServerCallContext): Promise<Message | Task> {
    return this.target(ctx).sendMessage(params, ctx);
  }

  sendMessageStream(
    params: SendMessageRequest,
    ctx: ServerCallContext,
  ): AsyncGenerator<StreamResponse, void, undefined> {
    return this.target(ctx).sendMessageStream(params, ctx);
  }

  getTask(params: GetTaskRequest, ctx: ServerCallContext): Promise<Task> {
    return this.target(ctx).getTask(params, ctx);
  }

  listTasks(params: ListTasksRequest, ctx: ServerCallContext): Promise<ListTasksResponse> {
    return this.target(ctx).listTasks(params, ctx);
  }

  cancelTask(params: CancelTaskRequest, ctx: ServerCallContext): Promise<Task> {
    return this.target(ctx).cancelTask(params, ctx);
  }

  createTaskPushNotificationConfig(
    params: TaskPushNotificationConfig,
    ctx: ServerCallContext,
  ): Promise<TaskPushNotificationConfig> {
    return this.target(ctx).createTaskPushNotificationConfig(params, ctx);
  }

  getTaskPushNotificationConfig(
    params: GetTaskPushNotificationConfigRequest,
    ctx: ServerCallContext,
  ): Promise<TaskPushNotificationConfig> {
    return this.target(ctx).getTaskPushNotificationConfig(params, ctx);
  }

  listTaskPushNotificationConfigs(
    params: ListTaskPushNotificationConfigsRequest,
    ctx: ServerCallContext,
  ): Promise<ListTaskPushNotificationConfigsResponse> {
    return this.target(ctx).listTaskPushNotificationConfigs(params, ctx);
  }

  deleteTaskPushNotificationConfig(
    params: DeleteTaskPushNotificationConfigRequest,
    ctx: ServerCallContext,
  ): Promise<void> {
    return this.target(ctx).deleteTaskPushNotificationConfig(params, ctx);
  }

  resubscribe(params: SubscribeToTaskRequest, ctx: ServerCallContext): AsyncGenerator<StreamResponse, void, undefined> {
    return this.target(ctx).resubscribe(params, ctx);
  }

  private target(ctx: ServerCallContext): A2ARequestHandler {
    return this.host.require(String(ctx.state.get(AGENT_ID_STATE_KEY))).handler;
  }
}
