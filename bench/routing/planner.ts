/** The orchestrator's TurnPlanner as the hub builds it, without a server: one routing decision per utterance. */
import type { AgentProfile } from '../../src/a2a/agent-profile';
import type { AgentHost } from '../../src/a2a/hosting/agent-host';
import type { AppConfig } from '../../src/platform/config/app-config';
import type { LearnedRoutes } from '../../src/orchestration/learning/learned-routes';
import type { OrchestrationContext } from '../../src/orchestration/orchestration.types';
import { AgentRouter } from '../../src/orchestration/router/agent-router';
import { SentenceEncoder } from '../../src/orchestration/router/semantic/sentence-encoder';
import { TurnPlanner } from '../../src/orchestration/turn-planner';
import type { Utterance } from './labelled-set';

export interface RoutingOutcome {
  item: Utterance;
  /** Agents the turn runs (none when it asks). */
  agents: string[];
  /** The turn is a clarifying question. */
  asked: boolean;
  /** The turn runs agents and asks about a part no agent was sure to handle. */
  question: boolean;
  /** Exactly the expected agents, or a question when none is expected. */
  correct: boolean;
  /** Some part went to an agent that should not have it. */
  wrongAgent: boolean;
  /** The sentence-embedding model was consulted. */
  semantic: boolean;
  ms: number;
}

/** The hub's planner over whatever agents each call names; nothing learned, no database. */
export async function planner(config: AppConfig) {
  const encoder = new SentenceEncoder(config);
  await encoder.load();
  // The agent set's revision: the bench passes a new array when the set changes.
  let agentsSeen: AgentProfile[] | undefined;
  let revision = 0;
  const host = {
    get revision() {
      return revision;
    },
  } as unknown as AgentHost;
  const learned = { agentFor: () => undefined, learn: async () => undefined } as unknown as LearnedRoutes;
  const turns = new TurnPlanner(host, new AgentRouter(config, encoder), learned, config.orchestration);
  return {
    encoder,
    plan(text: string, context: OrchestrationContext, agents: AgentProfile[]) {
      if (agents !== agentsSeen) {
        agentsSeen = agents;
        revision++;
      }
      return turns.plan('bench', text, text, context, agents);
    },
  };
}

export async function routeUtterance(
  turns: Awaited<ReturnType<typeof planner>>,
  item: Utterance,
  agents: AgentProfile[],
): Promise<RoutingOutcome> {
  const context: OrchestrationContext = {
    conversationId: `bench-${item.id}`,
    agentThreads: {},
    previousAgentId: item.previous,
    history: [],
  };
  const started = process.hrtime.bigint();
  const plan = await turns.plan(item.text, context, agents);
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  const run = plan.kind === 'run' ? [...new Set(plan.calls.map((c) => c.agentId))].sort() : [];
  const expected = [...item.expect].sort();
  const asked = plan.kind === 'ask';
  const question = plan.kind === 'run' && plan.question !== undefined;
  const correct = expected.length === 0 ? asked : !question && run.join() === expected.join();
  return {
    item,
    agents: run,
    asked,
    question,
    correct,
    wrongAgent: run.some((id) => !expected.includes(id)),
    semantic: plan.choice.evidence === 'semantic',
    ms,
  };
}
