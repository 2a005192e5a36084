import { Module, OnApplicationBootstrap, OnModuleInit } from '@nestjs/common';
import { A2aModule } from '../a2a/a2a.module';
import { AgentHost } from '../a2a/hosting/agent-host';
import { AppConfig } from '../platform/config/app-config';
import { HealthChecks } from '../platform/health/health-checks';
import { HealthModule } from '../platform/health/health.module';
import { Metrics } from '../platform/metrics/metrics';
import { OrchestrationContextStore } from './context/orchestration-context.store';
import { ConversationService } from './conversation.service';
import { OrchestratorHttpController } from './http/orchestrator-http.controller';
import { withOrchestrationErrors } from './orchestration-errors.handler';
import { OrchestratorExecutor, routableAgents } from './orchestrator.executor';
import { ORCHESTRATOR_PROFILE } from './orchestrator.profile';
import { AgentRouter } from './router/agent-router';
import { SentenceEncoder } from './router/semantic/sentence-encoder';
import { RoutingLog } from './routing-log/routing-log';
import { LearnedRoutes } from './learning/learned-routes';
import { TurnPlanner } from './turn-planner';

/**
 * The orchestrator: hosted as the default agent (`orchestrator`) on every transport (and at
 * `POST /a2a/lucia-orchestrator` and `POST /`; see A2aHttpLane), and at `/api/conversation`. Routing, the conversation context
 * store and the routing log live here.
 */
@Module({
  imports: [A2aModule, HealthModule],
  controllers: [OrchestratorHttpController],
  providers: [SentenceEncoder, AgentRouter, OrchestrationContextStore, RoutingLog, ConversationService, LearnedRoutes],
  exports: [RoutingLog, OrchestrationContextStore, AgentRouter, LearnedRoutes],
})
export class OrchestrationModule implements OnModuleInit, OnApplicationBootstrap {
  constructor(
    private readonly host: AgentHost,
    private readonly router: AgentRouter,
    private readonly contexts: OrchestrationContextStore,
    private readonly routingLog: RoutingLog,
    private readonly learned: LearnedRoutes,
    private readonly config: AppConfig,
    private readonly metrics: Metrics,
    private readonly health: HealthChecks,
  ) {}

  onModuleInit(): void {
    this.host.host({
      profile: ORCHESTRATOR_PROFILE,
      executor: new OrchestratorExecutor(
        this.host,
        new TurnPlanner(this.host, this.router, this.learned, this.config.orchestration),
        this.contexts,
        this.routingLog,
        this.config,
        this.metrics,
      ),
      // Every turn publishes its answer (and ends) before execute returns; its agents run within it.
      settledOnReturn: true,
      wrapHandler: withOrchestrationErrors,
    });
  }

  /**
   * The model loads and the cards of the agents hosted at boot are embedded behind the boot;
   * readiness waits for them (a second or two), so a replica's first requests are not routed on
   * card words alone.
   */
  onApplicationBootstrap(): void {
    this.health.warmUp(
      'the router model',
      this.router.prepare(() => routableAgents(this.host)),
    );
  }
}
