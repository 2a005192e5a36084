import { Logger } from '@nestjs/common';
import { AgentHost } from '../a2a/hosting/agent-host';
import type { AgentProfile } from '../a2a/agent-profile';
import type { AppConfig } from '../platform/config/app-config';
import type { AgentChoiceResult, OrchestrationContext } from './orchestration.types';
import { AgentRouter } from './router/agent-router';
import { pickedAgent } from './router/clarification-answer';
import { userUtterance } from './router/text-analysis';
import { LearnedRoutes } from './learning/learned-routes';

/** What the orchestrator decided to do with a request. */
export type Plan =
  | {
      kind: 'run';
      calls: { agentId: string; text: string }[];
      choice: AgentChoiceResult;
      router: string;
      /** The turn answers a question asked earlier (by an agent or by the orchestrator). */
      answersPending: boolean;
      /** Part of the request no agent was sure to handle: asked about after the answers. */
      question?: { text: string; request: string; candidates: string[] };
    }
  | { kind: 'ask'; question: string; candidates: string[]; choice: AgentChoiceResult; router: string };

/**
 * Decides what a turn does: continue an agent that asked the user something, take the user's
 * pick after a clarification, or route the request (AgentRouter) - to the best agents, to the
 * conversation's previous agent when routing is unsure, or to a question naming the candidates.
 */
export class TurnPlanner {
  private readonly logger = new Logger('TurnPlanner');

  constructor(
    private readonly host: AgentHost,
    private readonly router: AgentRouter,
    private readonly learned: LearnedRoutes,
    private readonly settings: AppConfig['orchestration'],
  ) {}

  /** The router's name in the routing log when it decides. */
  get routerName(): string {
    return this.router.usesLlm ? 'llm' : 'default';
  }

  async plan(
    owner: string,
    utterance: string,
    text: string,
    context: OrchestrationContext,
    agents: AgentProfile[],
  ): Promise<Plan> {
    const hosted = new Set(agents.map((a) => a.id));
    const pending = context.pending;
    if (pending?.kind === 'agent-input' && hosted.has(pending.agentId)) {
      return {
        kind: 'run',
        calls: [{ agentId: pending.agentId, text }],
        choice: { agentId: pending.agentId, reasoning: `Answer to ${pending.agentId}'s question`, confidence: 1 },
        router: 'previous-agent',
        answersPending: true,
      };
    }
    if (pending?.kind === 'clarification') {
      // An answer that picks an agent - offered or not - gets the request the question was about;
      // anything else is a new request.
      const offered = pending.candidates.filter((id) => hosted.has(id));
      const picked = pickedAgent(utterance, offered, agents);
      if (picked) {
        this.learn(owner, userUtterance(pending.request), picked);
        return {
          kind: 'run',
          calls: [{ agentId: picked, text: pending.request }],
          choice: { agentId: picked, reasoning: `The user chose ${picked} when asked`, confidence: 1 },
          router: 'clarification',
          answersPending: true,
        };
      }
    }

    const learned = this.learned.agentFor(owner, utterance, hosted);
    if (learned) {
      return {
        kind: 'run',
        calls: [{ agentId: learned, text }],
        choice: { agentId: learned, reasoning: `Settled with ${learned} when asked before`, confidence: 1 },
        router: 'learned',
        answersPending: false,
      };
    }

    const previous =
      context.previousAgentId && hosted.has(context.previousAgentId) ? context.previousAgentId : undefined;
    const { routing, router } = await this.router.route(
      { text: utterance, previousAgentId: previous, multiAgent: this.settings.multiAgent },
      agents,
      this.host.revision,
    );
    const choice: AgentChoiceResult = {
      agentId: routing.agentId,
      additionalAgents: routing.additionalAgents,
      reasoning: routing.reasoning,
      confidence: routing.confidence,
      evidence: router === 'llm' ? undefined : routing.semantic ? 'semantic' : 'lexical',
      candidates: routing.candidates,
    };
    if (!routing.agentId || routing.confidence < this.settings.confidenceThreshold) {
      if (previous && !routing.outOfScope && !routing.standsAlone) {
        return {
          kind: 'run',
          calls: [{ agentId: previous, text }],
          choice: {
            ...choice,
            agentId: previous,
            additionalAgents: undefined,
            reasoning: `${routing.reasoning}; confidence ${routing.confidence} is below the threshold, so the conversation's previous agent continues`,
          },
          router,
          answersPending: false,
        };
      }
      const question =
        routing.outOfScope && !routing.candidates.length
          ? 'None of the assistants here seems to handle that. If one of them should, tell me which.'
          : clarifyingQuestion('that', routing.candidates, agents);
      return { kind: 'ask', question, candidates: routing.candidates, choice, router };
    }

    const ids = [routing.agentId, ...(this.settings.multiAgent ? (routing.additionalAgents ?? []) : [])];
    const preamble = text.slice(0, Math.max(0, text.lastIndexOf(utterance)));
    // A split request's agents each get their part; the rest, if any, becomes a question.
    const split = ids.length > 1 || routing.unplaced !== undefined;
    const unplaced = routing.unplaced?.[0];
    return {
      kind: 'run',
      calls: ids.map((agentId) => ({
        agentId,
        text: routing.parts?.[agentId] && split ? preamble + routing.parts[agentId] : text,
      })),
      choice,
      router,
      answersPending: false,
      question: unplaced && {
        text: clarifyingQuestion(`"${unplaced.text}"`, unplaced.candidates, agents),
        request: preamble + (routing.unplaced ?? []).map((u) => u.text).join(' and '),
        candidates: unplaced.candidates,
      },
    };
  }

  /** Remembers a settled clarification, behind the answer; a failure costs only the shortcut. */
  private learn(owner: string, request: string, agentId: string): void {
    this.learned
      .learn(owner, request, agentId)
      .catch((error: Error) => this.logger.warn(`Could not learn a route to ${agentId}: ${error.message}`));
  }
}

/** "I'm not sure who should handle <what>. Did you mean A or B?", naming only agents that matched. */
function clarifyingQuestion(what: string, candidates: string[], agents: AgentProfile[]): string {
  const names = candidates.map((id) => agents.find((a) => a.id === id)?.name ?? id);
  return names.length
    ? `I'm not sure who should handle ${what}. Did you mean ${list(names, 'or')}?`
    : `I'm not sure who should handle ${what}. Could you say it another way?`;
}

export function list(items: string[], conjunction = 'and'): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} ${conjunction} ${items[items.length - 1]}`;
}
