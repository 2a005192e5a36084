import { Injectable, Logger } from '@nestjs/common';
import type { AgentProfile } from '../../a2a/agent-profile';
import { AppConfig } from '../../platform/config/app-config';
import { OrchestrationFailure } from '../orchestration-failure';
import { DefaultRouter } from './default-router';
import type { Routing, RoutingRequest } from './routing';
import { LlmRouter } from './llm-router';
import { withOfferedActions } from './actions';
import { SemanticStage } from './semantic/semantic-stage';
import { SentenceEncoder } from './semantic/sentence-encoder';
import { openingOf } from './text-analysis';

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
 * one: the card words first (DefaultRouter, sub-millisecond), and when they do not decide, the
 * meaning too (SemanticStage, once the sentence-embedding model is loaded). The built-in router's
 * index is rebuilt only when the set of hosted agents changes.
 */
@Injectable()
export class AgentRouter {
  private readonly logger = new Logger('Router');
  private readonly llm?: LlmRouter;
  private cached?: { key: unknown; router: DefaultRouter };
  private readonly semantic: SemanticStage;

  constructor(
    private readonly config: AppConfig,
    private readonly encoder: SentenceEncoder,
  ) {
    const { model, baseUrl, apiKey, timeoutMs } = config.orchestration.router;
    if (model) this.llm = new LlmRouter({ model, baseUrl, apiKey, timeoutMs });
    this.semantic = new SemanticStage(encoder, config.orchestration.confidenceThreshold);
  }

  get usesLlm(): boolean {
    return this.llm !== undefined;
  }

  /**
   * Which router routes, whether the sentence-embedding model of the built-in one is loaded, and
   * for the LLM router whether its endpoint answers now.
   */
  async readiness() {
    const { model, baseUrl, fallback } = this.config.orchestration.router;
    if (!this.llm) return { router: 'default' as const, ready: true, embeddings: this.encoder.status };
    const endpoint = await this.llm.probe();
    return {
      router: 'llm' as const,
      ready: endpoint.reachable && endpoint.error === undefined,
      model,
      base_url: baseUrl,
      fallback,
      endpoint,
      embeddings: this.encoder.status,
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
        return {
          routing: await this.routeBuiltIn(request, agents, key),
          router: 'llm-fallback',
          fallbackReason: reason,
        };
      }
    }
    return { routing: await this.routeBuiltIn(request, agents, key), router: 'default' };
  }

  /**
   * Loads the sentence-embedding model if it is not yet, and embeds these agents' cards, so the
   * first request that needs their meaning does not wait for it. Never throws.
   */
  async prepare(agents: () => readonly AgentProfile[]): Promise<void> {
    await this.encoder.load();
    if (!this.encoder.ready) return;
    const started = Date.now();
    const list = agents();
    try {
      await this.semantic.prepare(list);
      this.logger.log(`Embedded ${list.length} agent card(s) for routing by meaning in ${Date.now() - started} ms`);
    } catch (error) {
      this.logger.warn(`Could not embed the agent cards: ${(error as Error).message}`);
    }
  }

  /**
   * Card words, then meaning when the words do not decide and the model is loaded; then no agent
   * is sent an action its card does not offer (withOfferedActions).
   */
  private async routeBuiltIn(whole: RoutingRequest, agents: readonly AgentProfile[], key: unknown): Promise<Routing> {
    const request = readable(whole);
    const router = this.builtIn(agents, key);
    const routing = await this.byWordsAndMeaning(request, router, agents, key);
    return withOfferedActions(router, request, routing, this.config.orchestration.confidenceThreshold);
  }

  private async byWordsAndMeaning(
    request: RoutingRequest,
    router: DefaultRouter,
    agents: readonly AgentProfile[],
    key: unknown,
  ): Promise<Routing> {
    const byWords = router.route(request);
    if (!this.encoder.ready || this.semantic.decided(request, byWords)) return byWords;
    if (this.encoder.saturated) return { ...byWords, reasoning: `${byWords.reasoning} (the model was busy)` };
    try {
      return await this.semantic.refine(request, byWords, router, agents, key);
    } catch (error) {
      this.logger.warn(`Routing by meaning failed (${(error as Error).message}); routing on card words`);
      return byWords;
    }
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

const MAX_ROUTED_CHARS = 1_000;

/**
 * What the built-in router reads of a request: the first MAX_ROUTED_CHARS characters (a word
 * boundary), routed as one request - a single agent then gets the whole text. Reading all of a
 * long text costs the event loop its length in clause splitting and typo correction (a 200 KB
 * request held it for seconds) and the model the square of it; what a request asks for is in its
 * opening.
 */
function readable(request: RoutingRequest): RoutingRequest {
  if (request.text.length <= MAX_ROUTED_CHARS) return request;
  return { ...request, text: openingOf(request.text, MAX_ROUTED_CHARS), multiAgent: false };
}
