import { Injectable, Logger } from '@nestjs/common';
import type { AgentProfile } from '../../a2a/agent-profile';
import { AppConfig } from '../../platform/config/app-config';
import { OrchestrationFailure } from '../orchestration-failure';
import { DefaultRouter, Routing, RoutingRequest } from './default-router';
import { LlmRouter } from './llm-router';

export type RouterName = 'default' | 'llm' | 'llm-fallback';

export interface RouterDecision {
  routing: Routing;
  router: RouterName;
  /** Why the LLM router was not used, when it fell back. */
  fallbackReason?: string;
}

/**
 * Chooses the agents for a request: the LLM router when ROUTER_MODEL is set (falling back to the
 * built-in router, or failing with ROUTER_FAILURE, as ROUTER_FALLBACK says), else the built-in
 * one. The built-in router's index is rebuilt only when the set of hosted agents changes.
 */
@Injectable()
export class AgentRouter {
  private readonly logger = new Logger('Router');
  private readonly llm?: LlmRouter;
  private cached?: { key: unknown; router: DefaultRouter };

  constructor(private readonly config: AppConfig) {
    const { model, baseUrl, apiKey, timeoutMs } = config.orchestration.router;
    if (model) this.llm = new LlmRouter({ model, baseUrl, apiKey, timeoutMs });
  }

  get usesLlm(): boolean {
    return this.llm !== undefined;
  }

  /** Which router routes, and for the LLM router whether its endpoint answers now. */
  async readiness() {
    const { model, baseUrl, fallback } = this.config.orchestration.router;
    if (!this.llm) return { router: 'default' as const, ready: true };
    const endpoint = await this.llm.probe();
    return {
      router: 'llm' as const,
      ready: endpoint.reachable && endpoint.error === undefined,
      model,
      base_url: baseUrl,
      fallback,
      endpoint,
    };
  }

  /** `key` identifies the agent set (AgentHost.revision); the same key reuses the index. */
  async route(request: RoutingRequest, agents: readonly AgentProfile[], key: unknown): Promise<RouterDecision> {
    if (this.llm && agents.length) {
      try {
        return { routing: await this.llm.route(request, agents), router: 'llm' };
      } catch (error) {
        const reason = (error as Error).message;
        if (this.config.orchestration.router.fallback === 'error') {
          throw new OrchestrationFailure({
            errorCode: 'ROUTER_FAILURE',
            userMessage: "Sorry, I couldn't work out which assistant should handle that. Please try again in a moment.",
            technicalDetails: reason,
            suggestedAction: 'Check ROUTER_BASE_URL, ROUTER_MODEL and ROUTER_API_KEY, or set ROUTER_FALLBACK=default.',
          });
        }
        this.logger.warn(`${reason}; using the built-in router`);
        return { routing: this.builtIn(agents, key).route(request), router: 'llm-fallback', fallbackReason: reason };
      }
    }
    return { routing: this.builtIn(agents, key).route(request), router: 'default' };
  }

  /** The built-in router over these agents (cached by key). */
  builtIn(agents: readonly AgentProfile[], key: unknown): DefaultRouter {
    const cached = this.cached;
    if (cached && cached.key === key) return cached.router;
    const router = new DefaultRouter(agents);
    this.cached = { key, router };
    return router;
  }
}
