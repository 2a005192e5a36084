import type { Routing } from './routing';
import { clauses } from './clauses';
import { isFragment } from './text-analysis';

/** One clause of a request as its own card words see it (DefaultRouter). */
export interface ClauseVerdict {
  /** The agent whose card matches the clause best, if any matches. */
  best?: string;
  /** Whether the clause's words decide it on their own (a strong word, or enough confidence). */
  own: boolean;
  confidence: number;
  /**
   * The clause's best agent rests on one card word beside words its card does not have ("lower
   * the *temperature*": a forecast's tag, but the request is the heating's).
   */
  oneWordAmongOthers?: boolean;
  /** The agents worth naming when asking about the clause, best first. */
  candidates: () => string[];
}

/**
 * Routes each clause of a multi-intent request on its own card words. A clause that does not
 * decide on its own joins an agent the request already goes to if that agent is its best match
 * ("find me a blue mug and *add two to my cart*"), and a fragment of one word the clause before
 * it ("play jazz and *blues*"); any other is left unplaced, to be asked about, rather than handed
 * to a neighbour that cannot do it. Answers when clauses go to two or more agents, or to one with
 * others left unplaced.
 */
export function routeClauses(text: string, judge: (clause: string) => ClauseVerdict): Routing | undefined {
  const parts = clauses(text);
  if (parts.length < 2) return undefined;
  const ranked = parts.map((part) => ({ part, ...judge(part) }));
  const deciding = new Set(ranked.filter((r) => r.own).map((r) => r.best!));
  const chosen = new Map<string, { text: string[]; confidence: number }>();
  const unplaced: { text: string; candidates: string[] }[] = [];
  let last: string | undefined;
  let tentative = false;
  for (const { part, best, own, confidence, candidates, oneWordAmongOthers } of ranked) {
    let agent: string | undefined;
    if (own || (best && deciding.has(best))) agent = best;
    else if (isFragment(part)) agent = last;
    if (!agent) {
      if (!isFragment(part)) unplaced.push({ text: part, candidates: candidates() });
      continue;
    }
    const entry = chosen.get(agent) ?? { text: [], confidence: 1 };
    entry.text.push(part);
    if (own) entry.confidence = Math.min(entry.confidence, confidence);
    tentative ||= own && oneWordAmongOthers === true;
    chosen.set(agent, entry);
    last = agent;
  }
  const routing = splitRouting(chosen, unplaced, false);
  return routing && tentative ? { ...routing, tentative } : routing;
}

/**
 * A split request's routing: the agents its clauses went to, in request order, with their parts,
 * and the clauses left to ask about; undefined unless the clauses go to two agents or some stay
 * unplaced beside one. `semantic`: the clauses were judged by their meaning too (SemanticStage).
 */
export function splitRouting(
  chosen: ReadonlyMap<string, { text: string[]; confidence: number }>,
  unplaced: { text: string; candidates: string[] }[],
  semantic: boolean,
): Routing | undefined {
  if (chosen.size === 0 || (chosen.size < 2 && unplaced.length === 0)) return undefined;
  const [primary, ...additional] = [...chosen.keys()];
  const routed = [...chosen].map(([id, c]) => `"${c.text.join(', ')}" → ${id}`);
  const asked = unplaced.map((u) => `"${u.text}" → ?`);
  return {
    agentId: primary,
    additionalAgents: additional.length ? additional : undefined,
    reasoning: `The request has ${chosen.size + unplaced.length} intents${semantic ? ', by their words and meaning' : ''}: ${[...routed, ...asked].join('; ')}`,
    confidence: round(Math.min(...[...chosen.values()].map((c) => c.confidence))),
    candidates: [...chosen.keys()],
    parts: Object.fromEntries([...chosen].map(([id, c]) => [id, c.text.join(' and ')])),
    unplaced: unplaced.length ? unplaced : undefined,
    ...(semantic ? { semantic } : {}),
  };
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
