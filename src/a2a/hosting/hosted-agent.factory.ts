import { A2ARequestHandler, AgentExecutor, DefaultRequestHandler } from '@a2a-js/sdk/server';
import { jsonRpcHandler, restHandler, UserBuilder } from '@a2a-js/sdk/server/express';
import { Injectable } from '@nestjs/common';
import { Router, type Request } from 'express';
import { requestPrincipal } from '../../platform/auth/principal-holder';
import { AppConfig } from '../../platform/config/app-config';
import { AgentCardFactory } from '../card/agent-card.factory';
import { HubEndpointsResolver } from '../card/hub-endpoints';
import { unaryJsonRpcHandler } from '../http/json-rpc-unary';
import { jsonRpcPreflight, restPreflight, restRouteErrors } from '../http/protocol-preflight';
import { jsonBody } from '../../platform/http/json-body.middleware';
import { AgentPush } from '../push/agent-push';
import { KvTaskStore } from '../store/kv-task.store';
import { TaskStores } from '../store/task-stores';
import { A2aUser } from './a2a-user';
import { CancelRelay } from './cancel-relay';
import { contextFor } from './call-context';
import type { A2aTransport } from './call-state';
import { DirectSend } from './direct-send';
import { ExecutionBuses } from './execution-buses';
import { GuardedRequestHandler } from './guarded-request-handler';
import { AgentDefinition, HostedAgent } from './hosted-agent';

/**
 * Wires an agent to the official SDK: its DefaultRequestHandler (card, executor, task store,
 * event buses, push store and sender) behind the hub's guard, and its HTTP endpoints in an
 * express Router, each behind its preflight - JSON-RPC through the SDK's transport handlers
 * (unary methods by unaryJsonRpcHandler, streams by the SDK's express handler), HTTP+JSON by the
 * SDK's express handler - with v0.3 compatibility on: requests without an A2A-Version header are
 * served as v0.3. An agent whose executor is done when it returns (settledOnReturn) has the
 * blocking sends that start a task answered by DirectSend, beside the SDK's handler, on the same
 * task store, buses and push sender.
 */
@Injectable()
export class HostedAgentFactory {
  /** The caller the gate admitted, with the base URL it reached the hub at. */
  private readonly principalUser: UserBuilder = async (req: Request) => {
    const principal = requestPrincipal(req);
    if (!principal) throw new Error('A2A route reached without an authenticated caller');
    return new A2aUser(principal, this.endpoints.httpBaseOf(req));
  };

  constructor(
    private readonly config: AppConfig,
    private readonly cards: AgentCardFactory,
    private readonly endpoints: HubEndpointsResolver,
    private readonly taskStores: TaskStores,
    private readonly push: AgentPush,
    private readonly buses: ExecutionBuses,
    private readonly cancels: CancelRelay,
  ) {}

  build(definition: AgentDefinition): HostedAgent {
    const { profile, executor } = definition;
    const tasks = this.taskStores.forAgent(profile.id);
    const push = this.push.forAgent(profile.id);
    const card = this.cards.build(profile, this.endpoints.configured());
    const starting = startingExecutionsOf(executor, tasks);
    const buses = this.buses.register(profile.id, executor);
    const sdk = new DefaultRequestHandler(card, tasks, starting, buses, push.store, push.sender);
    const direct = definition.settledOnReturn
      ? new DirectSend(starting, tasks, buses, card.capabilities?.pushNotifications ? push.sender : undefined)
      : undefined;
    const guarded = new GuardedRequestHandler(
      profile.id,
      sdk,
      (taskId, context) => this.cancels.relay(profile.id, taskId, context),
      direct,
    );
    const handler = definition.wrapHandler ? definition.wrapHandler(guarded) : guarded;
    return new HostedAgent(profile, handler, this.router(profile.id, handler), executor);
  }

  /** Forgets what was wired for an agent that is no longer hosted. */
  forget(agentId: string): void {
    this.buses.forget(agentId);
    this.push.forget(agentId);
  }

  private router(agentId: string, handler: A2ARequestHandler): Router {
    const options = (transport: A2aTransport) => ({
      requestHandler: handler,
      userBuilder: this.principalUser,
      contextBuilder: contextFor(() => agentId, transport),
      legacyCompat: { enabled: true },
    });
    const body = jsonBody(this.config.http.maxBodyBytes, this.config.http.json);
    const router = Router();
    router.use(
      '/v1',
      jsonRpcPreflight(body),
      unaryJsonRpcHandler(options('jsonrpc')),
      jsonRpcHandler(options('jsonrpc')),
    );
    router.use('/json', restPreflight(body), restHandler(options('rest')), restRouteErrors);
    return router;
  }
}

/** The executor, telling the task store first that an execution starts here (see KvTaskStore.beginExecution). */
function startingExecutionsOf(executor: AgentExecutor, store: KvTaskStore): AgentExecutor {
  return {
    execute: (request, bus) => {
      store.beginExecution(request);
      return executor.execute(request, bus);
    },
    cancelTask: (taskId, bus) => executor.cancelTask(taskId, bus),
  };
}
