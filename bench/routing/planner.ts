/**
 * The orchestrator's TurnPlanner as the hub builds it (OrchestrationModule), without a server: one
 * routing decision per utterance; a follow-up or topic change is the second turn of a conversation
 * whose first turn was planned too and remembered as the orchestrator remembers it.
 */
import type { AgentProfile } from '../../src/a2a/agent-profile';
import type { AgentHost } from '../../src/a2a/hosting/agent-host';
import type { AppConfig } from '../../src/platform/config/app-config';
import { empty } from '../../src/orchestration/context/orchestration-context.store';
import type { LearnedRoutes } from '../../src/orchestration/learning/learned-routes';
import type { OrchestrationContext } from '../../src/orchestration/orchestration.types';
import { AgentRouter } from '../../src/orchestration/router/agent-router';
import { SentenceEncoder } from '../../src/orchestration/router/semantic/sentence-encoder';
import { userUtterance } from '../../src/orchestration/router/text-analysis';
import { Plan, TurnPlanner } from '../../src/orchestration/turn-planner';
import { contextAfter, labelledRun } from './conversation';
import type { Utterance } from './labelled-set';

export interface RoutingOutcome {
  item: Utterance;
  /** Agents the turn runs (none when it asks). */
  agents: string[];
  /** The turn is a clarifying question. */
  asked: boolean;
  /** The turn runs agents and asks about a part no agent was sure to handle. */
  question: boolean;
  /** Exactly the expected agents (and a question about the rest when the item `asks`), or a question when none is expected. */
  correct: boolean;
  /** Some part went to an agent that should not have it. */
  wrongAgent: boolean;
  /** The sentence-embedding model was consulted. */
  semantic: boolean;
  /** In a conversation: whether its first turn ran exactly the labelled previous agent. */
  firstTurnAsLabelled?: boolean;
  /** Why the turn was planned as it was (the router's reasoning), and for a conversation why its first turn was. */
  reasoning: string;
  firstReasoning?: string;
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
    maxHistory: config.orchestration.maxHistory,
    /** One turn: `utterance` is what the user said, `text` the message's whole text (as the executor passes them). */
    plan(utterance: string, text: string, context: OrchestrationContext, agents: AgentProfile[]) {
      if (agents !== agentsSeen) {
        agentsSeen = agents;
        revision++;
      }
      return turns.plan('bench', utterance, text, context, agents);
    },
  };
}

/**
 * How a conversation's first turn is played: `driven` - planned by the router like any turn, its
 * context whatever that plan leaves (what a user gets); `labelled` - taken to have gone to its
 * labelled agent (the follow-up judged on its own).
 */
export type ContextMode = 'driven' | 'labelled';

export async function routeUtterance(
  turns: Awaited<ReturnType<typeof planner>>,
  item: Utterance,
  agents: AgentProfile[],
  mode: ContextMode = 'driven',
): Promise<RoutingOutcome> {
  let context: OrchestrationContext = empty(`bench-${item.id}`);
  let firstTurnAsLabelled: boolean | undefined;
  let firstReasoning: string | undefined;
  if (item.before !== undefined && item.previous !== undefined) {
    // The conversation so far: the user's previous turn, remembered as the orchestrator does.
    const said = userUtterance(item.before);
    const first =
      mode === 'driven'
        ? await turns.plan(said, item.before, context, agents)
        : labelledRun(item.previous, item.before);
    firstTurnAsLabelled = first.kind === 'run' && !first.question && ran(first).join() === item.previous;
    firstReasoning = first.choice.reasoning;
    context = contextAfter(context, said, item.before, first, agents, turns.maxHistory);
  }
  const said = userUtterance(item.text);
  const started = process.hrtime.bigint();
  const plan = await turns.plan(said, item.text, context, agents);
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  const run = plan.kind === 'run' ? ran(plan) : [];
  const expected = [...item.expect].sort();
  const asked = plan.kind === 'ask';
  const question = plan.kind === 'run' && plan.question !== undefined;
  const correct = expected.length === 0 ? asked : question === (item.asks === true) && run.join() === expected.join();
  return {
    item,
    agents: run,
    asked,
    question,
    correct,
    wrongAgent: run.some((id) => !expected.includes(id)),
    semantic: plan.choice.evidence === 'semantic',
    firstTurnAsLabelled,
    reasoning: plan.choice.reasoning,
    firstReasoning,
    ms,
  };
}

/** The agents a run plan calls, sorted. */
function ran(plan: Extract<Plan, { kind: 'run' }>): string[] {
  return [...new Set(plan.calls.map((c) => c.agentId))].sort();
}
