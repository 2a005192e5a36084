import { BeforeApplicationShutdown, Module } from '@nestjs/common';
import { AuthCoreModule } from '../platform/auth/auth-core.module';
import { AppConfig } from '../platform/config/app-config';
import { A2aGate } from './a2a-gate';
import { AgentCardFactory } from './card/agent-card.factory';
import { AgentCardService } from './card/agent-card.service';
import { HubEndpointsResolver } from './card/hub-endpoints';
import { A2aGrpcService } from './grpc/a2a-grpc.service';
import { AgentHost } from './hosting/agent-host';
import { CancelRelay } from './hosting/cancel-relay';
import { ExecutionBuses } from './hosting/execution-buses';
import { HostedAgentFactory } from './hosting/hosted-agent.factory';
import { A2aHttpLane } from './http/a2a-http-lane';
import { A2aHttpController, HubCardController } from './http/a2a-http.controller';
import { AgentPush } from './push/agent-push';
import { PushConfigRepository } from './push/push-config.repository';
import { PushSubscriptions } from './push/push-subscriptions';
import { TaskWebhooks } from './push/task-webhooks';
import { A2aTaskRepository } from './store/a2a-task.repository';
import { TaskIndexRecovery } from './store/task-index-recovery';
import { TaskStores } from './store/task-stores';

/**
 * A2A hosting on the official SDK: every hosted agent over JSON-RPC, HTTP+JSON and gRPC, v0.3
 * and v1.0, with tasks on the key-value store and Postgres and push notifications. The default
 * agent (the orchestrator) is hosted by the OrchestrationModule.
 */
@Module({
  imports: [AuthCoreModule],
  controllers: [A2aHttpController, HubCardController],
  providers: [
    AgentCardFactory,
    AgentCardService,
    HubEndpointsResolver,
    AgentHost,
    HostedAgentFactory,
    ExecutionBuses,
    CancelRelay,
    TaskStores,
    A2aTaskRepository,
    TaskIndexRecovery,
    AgentPush,
    PushConfigRepository,
    PushSubscriptions,
    TaskWebhooks,
    A2aGate,
    A2aGrpcService,
    A2aHttpLane,
  ],
  exports: [AgentHost, AgentCardService, HubEndpointsResolver, A2aTaskRepository, PushSubscriptions],
})
export class A2aModule implements BeforeApplicationShutdown {
  constructor(
    private readonly host: AgentHost,
    private readonly config: AppConfig,
  ) {}

  /** Notifications already queued get their chance to go out, within the shutdown deadline. */
  async beforeApplicationShutdown(): Promise<void> {
    await this.host.drainPushNotifications(this.config.shutdownTimeoutMs);
  }
}
