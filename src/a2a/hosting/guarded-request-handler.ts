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
import { A2AError } from '@a2a-js/sdk/errors';
import type { A2ARequestHandler, ServerCallContext } from '@a2a-js/sdk/server';
import { Logger } from '@nestjs/common';
import { DomainError, isDomainError } from '../../platform/errors/domain-error';
import { ErrorCode } from '../../platform/errors/error-code';
import { a2aErrorOf } from '../errors/a2a-error';
import { noteContinuation, transportOf } from './call-state';
import type { DirectSend } from './direct-send';

const logger = new Logger('A2A');

/**
 * Wraps an agent's SDK request handler so what our stores throw reaches callers as an A2A error
 * (and notes, for the agent's executor, whether a message continues a conversation; see
 * call-state.ts). The SDK answers any error that is not an A2A error with a generic internal
 * error; a DomainError (Redis unavailable, a write conflict, a task not found) becomes the A2A
 * error its code is (a2a-error.mapping.ts), in the form of the call's transport; anything else is
 * logged with its stack and answered as an internal error with a generic message, so SQL, file
 * paths or library internals never leave the hub. A2A errors pass unchanged.
 */
export class GuardedRequestHandler implements A2ARequestHandler {
  constructor(
    private readonly agentId: string,
    private readonly inner: A2ARequestHandler,
    /** Runs before a cancel reaches the SDK (the hub relays it to the replica running the task). */
    private readonly beforeCancel?: (taskId: string, ctx: ServerCallContext) => Promise<void>,
    /** Answers the blocking sends that start a task without the SDK's event machinery, where the agent allows it. */
    private readonly direct?: DirectSend,
  ) {}

  getAgentCard(): Promise<AgentCard> {
    return this.inner.getAgentCard();
  }

  getAuthenticatedExtendedAgentCard(params: GetExtendedAgentCardRequest, ctx: ServerCallContext): Promise<AgentCard> {
    return this.guard('GetExtendedAgentCard', ctx, () => this.inner.getAuthenticatedExtendedAgentCard(params, ctx));
  }

  sendMessage(params: SendMessageRequest, ctx: ServerCallContext): Promise<Message | Task> {
    noteContinuation(ctx, params.message);
    const direct = this.direct?.accepts(params) ? this.direct : undefined;
    return this.guard('SendMessage', ctx, () =>
      direct ? direct.send(params, ctx) : this.inner.sendMessage(params, ctx),
    );
  }

  sendMessageStream(
    params: SendMessageRequest,
    ctx: ServerCallContext,
  ): AsyncGenerator<StreamResponse, void, undefined> {
    noteContinuation(ctx, params.message);
    return this.guardStream('SendStreamingMessage', ctx, () => this.inner.sendMessageStream(params, ctx));
  }

  getTask(params: GetTaskRequest, ctx: ServerCallContext): Promise<Task> {
    return this.guard('GetTask', ctx, () => this.inner.getTask(params, ctx));
  }

  listTasks(params: ListTasksRequest, ctx: ServerCallContext): Promise<ListTasksResponse> {
    return this.guard('ListTasks', ctx, () => this.inner.listTasks(params, ctx));
  }

  cancelTask(params: CancelTaskRequest, ctx: ServerCallContext): Promise<Task> {
    return this.guard('CancelTask', ctx, async () => {
      await this.beforeCancel?.(params.id, ctx);
      return this.inner.cancelTask(params, ctx);
    });
  }

  createTaskPushNotificationConfig(params: TaskPushNotificationConfig, ctx: ServerCallContext) {
    return this.guard('CreateTaskPushNotificationConfig', ctx, () =>
      this.inner.createTaskPushNotificationConfig(params, ctx),
    );
  }

  getTaskPushNotificationConfig(
    params: GetTaskPushNotificationConfigRequest,
    ctx: ServerCallContext,
  ): Promise<TaskPushNotificationConfig> {
    return this.guard('GetTaskPushNotificationConfig', ctx, () =>
      this.inner.getTaskPushNotificationConfig(params, ctx),
    );
  }

  listTaskPushNotificationConfigs(
    params: ListTaskPushNotificationConfigsRequest,
    ctx: ServerCallContext,
  ): Promise<ListTaskPushNotificationConfigsResponse> {
    return this.guard('ListTaskPushNotificationConfigs', ctx, () =>
      this.inner.listTaskPushNotificationConfigs(params, ctx),
    );
  }

  deleteTaskPushNotificationConfig(
    params: DeleteTaskPushNotificationConfigRequest,
    ctx: ServerCallContext,
  ): Promise<void> {
    return this.guard('DeleteTaskPushNotificationConfig', ctx, () =>
      this.inner.deleteTaskPushNotificationConfig(params, ctx),
    );
  }

  resubscribe(params: SubscribeToTaskRequest, ctx: ServerCallContext): AsyncGenerator<StreamResponse, void, undefined> {
    return this.guardStream('SubscribeToTask', ctx, () => this.inner.resubscribe(params, ctx));
  }

  private async guard<T>(method: string, ctx: ServerCallContext, call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      throw this.clean(method, ctx, error);
    }
  }

  private async *guardStream(
    method: string,
    ctx: ServerCallContext,
    open: () => AsyncGenerator<StreamResponse, void, undefined>,
  ): AsyncGenerator<StreamResponse, void, undefined> {
    try {
      yield* open();
    } catch (error) {
      throw this.clean(method, ctx, error);
    }
  }

  private clean(method: string, ctx: ServerCallContext, error: unknown): unknown {
    if (error instanceof A2AError) return error;
    if (isDomainError(error)) {
      logger.warn(`${this.agentId} ${method}: ${error.message}`);
      return a2aErrorOf(error, transportOf(ctx));
    }
    logger.error(
      `${this.agentId} ${method} failed: ${(error as Error)?.message ?? String(error)}`,
      (error as Error)?.stack,
    );
    const internal = new DomainError(
      ErrorCode.INTERNAL,
      'Internal error while handling the request; it has been logged',
    );
    return a2aErrorOf(internal, transportOf(ctx));
  }
}
