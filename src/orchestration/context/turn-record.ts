import type { OrchestrationContext, PendingInput } from '../orchestration.types';

/** What a turn leaves in its conversation's context. */
export interface TurnRecord {
  /** What the user said (the utterance, without any preamble). */
  said: string;
  /** What the orchestrator answered (answers, questions). */
  answered: string;
  /** The agents that ran, in request order, each with the context the call used. */
  ran: { agentId: string; contextId: string; needsInput: boolean; taskId?: string }[];
  /** The question the conversation now waits on, if any. */
  pending?: PendingInput;
  /** The agent the next unsure turn goes on with; unset: the one before stays. */
  previousAgentId?: string;
  at: string;
}

/**
 * The context after a turn: each agent that ran keeps its thread (and its task while it waits for
 * input), the turn joins the history, trimmed to `maxHistory` exchanges, and what is pending and
 * who spoke last are as the turn left them.
 */
export function afterTurn(context: OrchestrationContext, turn: TurnRecord, maxHistory: number): OrchestrationContext {
  const agentThreads = { ...context.agentThreads };
  for (const agent of turn.ran) {
    agentThreads[agent.agentId] = {
      contextId: agentThreads[agent.agentId]?.contextId ?? agent.contextId,
      taskId: agent.needsInput ? agent.taskId : undefined,
    };
  }
  const history = [
    ...context.history,
    { role: 'user' as const, text: turn.said, at: turn.at },
    { role: 'agent' as const, text: turn.answered, agents: turn.ran.map((a) => a.agentId), at: turn.at },
  ];
  const keep = maxHistory * 2;
  return {
    ...context,
    agentThreads,
    previousAgentId: turn.previousAgentId ?? context.previousAgentId,
    history: keep > 0 ? history.slice(-keep) : [],
    pending: turn.pending,
  };
}
