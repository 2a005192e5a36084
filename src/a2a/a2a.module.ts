import { BeforeApplicationShutdown, Module, OnModuleInit } from '@nestjs/common';
import { AuthCoreModule } from '../platform/auth/auth-core.module';
import { AppConfig } from '../platform/config/app-config';
import { RoutePolicies } from '../platform/http/route-policies';
import { AgentCardFactory } from './card/agent-card.factory';
import { AgentCardService } from './card/agent-card.service';
import { HubEndpointsResolver } from './card/hub-endpoints';
import { A2aGrpcService } from './grpc/a2a-grpc.service';
import { AgentHost } from './hosting/agent-host';
import { A2aHttpLane } from './http/a2a-http-lane';
import { A2aHttpController, HubCardController } from './http/a2a-http.controller';
import { PushConfigRepository } from './push/push-config.repository';
import { PushSubscriptions } from './push/push-subscriptions';
import { TaskWebhooks } from './push/task-webhooks';
import { A2aTaskRepository } from './store/a2a-task.repository';

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
    A2aTaskRepository,
    PushConfigRepository,
    PushSubscriptions,
    TaskWebhooks,
    A2aGrpcService,
    A2aHttpLane,
  ],
  exports: [AgentHost, AgentCardService, HubEndpointsResolver, A2aTaskRepository, PushSubscriptions],
})
export class A2aModule implements OnModuleInit, BeforeApplicationShutdown {
  constructor(
    private readonly host: AgentHost,
    private readonly routes: RoutePolicies,
    private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    // /v1 speaks JSON-RPC: errors there, even the guard's, are JSON-RPC error objects.
    this.routes.registerJsonRpc(/^\/api\/agents\/[^/]+\/v1\/?$/i);
  }

  /** Notifications already queued get their chance to go out, within the shutdown deadline. */
  async beforeApplicationShutdown(): Promise<void> {
    await this.host.drainPushNotifications(this.config.shutdownTimeoutMs);
  }
}
