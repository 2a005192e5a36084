import { get } from './http';

export const ROUTING_OUTCOMES = ['answered', 'clarification', 'input-required', 'error'] as const;

export interface RoutingDecision {
  id: string;
  timestamp: string;
  contextId: string | null;
  taskId: string | null;
  owner: string;
  request: string;
  agentId: string | null;
  additionalAgents: string[];
  confidence: number | null;
  reasoning: string | null;
  /** The agents the router weighed, best first. */
  candidates: string[];
  /** What the turn answered: the reply, the question or the error. */
  answer: string | null;
  router: string | null;
  outcome: string;
  errorCode: string | null;
  durationMs: number | null;
}

export interface RoutingLogPage {
  items: RoutingDecision[];
  limit: number;
  next_cursor: string | null;
}

export interface RoutingLogFilter {
  agent?: string;
  outcome?: string;
  contextId?: string;
  since?: string;
  until?: string;
  minConfidence?: string;
  maxConfidence?: string;
  cursor?: string;
  limit?: number;
}

export function routingLog(filter: RoutingLogFilter): Promise<RoutingLogPage> {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(filter))
    if (value !== undefined && value !== '') query.set(key, String(value));
  return get<RoutingLogPage>(`/internal/orchestration/routing-log?${query.toString()}`);
}

/**
 * The decision for the turn just answered: the newest of the conversation's decisions not yet shown
 * for an earlier turn (`seen`). The log is written just after the answer, so it is asked a few times.
 */
export async function decisionFor(contextId: string, seen: ReadonlySet<string>): Promise<RoutingDecision | null> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const page = await routingLog({ contextId, limit: 10 });
    const found = page.items.find((d) => !seen.has(d.id));
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return null;
}
