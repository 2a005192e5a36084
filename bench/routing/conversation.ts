/**
 * A conversation's context after a turn, as the orchestrator keeps it (`afterTurn`, which
 * OrchestratorExecutor uses): a question - asked alone, or after a split request's answers - is
 * pending with the request it was about; the agents that ran get a thread and the first of them
 * becomes the conversation's previous agent. The agents are taken to answer at once, as a bench
 * has no agents behind the cards: none asks for input, and each answer is a stand-in line.
 */
import type { AgentProfile } from '../../src/a2a/agent-profile';
import { afterTurn } from '../../src/orchestration/context/turn-record';
import type { OrchestrationContext, PendingInput } from '../../src/orchestration/orchestration.types';
import type { Plan } from '../../src/orchestration/turn-planner';

export function contextAfter(
  context: OrchestrationContext,
  /** What the user said (the utterance, without any preamble). */
  said: string,
  /** The whole text of the turn (what a clarification remembers as its request). */
  text: string,
  plan: Plan,
  agents: readonly AgentProfile[],
  maxHistory: number,
): OrchestrationContext {
  const ran = plan.kind === 'run' ? [...new Set(plan.calls.map((c) => c.agentId))] : [];
  const names = new Map(agents.map((a) => [a.id, a.name]));
  let pending: PendingInput | undefined;
  let answered: string;
  if (plan.kind === 'ask') {
    pending = { kind: 'clarification', request: text, candidates: plan.candidates };
    answered = plan.question;
  } else {
    const question = plan.question;
    if (question) pending = { kind: 'clarification', request: question.request, candidates: question.candidates };
    answered = [...ran.map((id) => `${names.get(id) ?? id}: done.`), question?.text].filter(Boolean).join('\n');
  }
  const turn = {
    said,
    answered,
    ran: ran.map((agentId) => ({ agentId, contextId: `${context.conversationId}:${agentId}`, needsInput: false })),
    pending,
    previousAgentId: ran[0],
    at: new Date(0).toISOString(),
  };
  return afterTurn(context, turn, maxHistory);
}

/** The plan of a turn that went exactly as labelled: `agentId` alone ran `text`. */
export function labelledRun(agentId: string, text: string): Plan {
  return {
    kind: 'run',
    calls: [{ agentId, text }],
    choice: { agentId, reasoning: 'as labelled', confidence: 1 },
    router: 'default',
    answersPending: false,
  };
}
