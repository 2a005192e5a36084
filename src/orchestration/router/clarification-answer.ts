import type { AgentProfile } from '../../a2a/agent-profile';
import { terms, words } from './text-analysis';
import { sameWord } from './typos';

/** Words that pick an offered option by its place in the question. */
const ORDINALS: Record<string, number> = {
  first: 0,
  '1st': 0,
  one: 0,
  '1': 0,
  second: 1,
  '2nd': 1,
  two: 1,
  '2': 1,
  third: 2,
  '3rd': 2,
  three: 2,
  '3': 2,
  last: -1,
};
const YES = new Set(['yes', 'yeah', 'yep', 'yup', 'sure', 'ok', 'okay', 'correct', 'right', 'please']);
/** An answer longer than this, beyond the agent's name, is a new request rather than a pick. */
const MAX_EXTRA_WORDS = 4;

/**
 * Which agent the user's answer to "Did you mean A, B or C?" picks, if any: one of the offered
 * ones by its place ("the second one") or by yes when only one was offered, or any hosted agent
 * by its name or id, each word allowed one typo ("home controll"). An answer that says more than
 * a name is a new request, not a pick: undefined.
 */
export function pickedAgent(
  answer: string,
  offered: readonly string[],
  agents: readonly AgentProfile[],
): string | undefined {
  const said = words(answer);
  if (said.length === 0) return undefined;
  if (said.length <= 3) {
    for (const word of said) {
      const place = ORDINALS[word];
      if (place !== undefined && offered.length > 0) return offered.at(place);
    }
    if (offered.length === 1 && said.every((w) => YES.has(w) || w === 'that' || w === 'it')) return offered[0];
  }
  const answerTerms = terms(answer);
  let best: { id: string; named: number } | undefined;
  for (const agent of agents) {
    const byName = terms(agent.name);
    const byId = terms(agent.id.replace(/[-_]+/g, ' '));
    const named = [byName, byId].find(
      (name) => name.length > 0 && name.every((t) => answerTerms.some((a) => sameWord(a, t))),
    );
    if (!named) continue;
    const extra = answerTerms.filter((a) => ![...byName, ...byId].some((t) => sameWord(a, t))).length;
    if (extra > MAX_EXTRA_WORDS) continue;
    // The most specific name wins ("Home Control" over "Home"); then the offered, in their order.
    const rank = named.length * 10 - extra - (offered.includes(agent.id) ? 0 : 1);
    if (!best || rank > best.named) best = { id: agent.id, named: rank };
  }
  return best?.id;
}
