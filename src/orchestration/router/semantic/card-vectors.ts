import { createHash } from 'node:crypto';
import type { AgentProfile } from '../../../a2a/agent-profile';
import { isEnglishWord } from '../common-words';
import { properNames } from '../text-analysis';
import { CARD_BACKGROUND } from './everyday-domains';
import { cosine, SentenceEncoder } from './sentence-encoder';

/** An agent's card as sentences: what it says it is for, each skill, each example. */
function anchorsOf(agent: AgentProfile): string[] {
  const anchors = [`${agent.name}: ${agent.description}`];
  for (const skill of agent.skills) {
    anchors.push(`${skill.name}: ${skill.description}`);
    if (skill.tags.length) anchors.push(skill.tags.join(', '));
    anchors.push(...skill.examples);
  }
  return [...new Set(anchors.map((a) => a.trim()).filter(Boolean))];
}

/** What a card says it is for, in words: its name, description, skills and tags (not its examples). */
function wordsOf(agent: AgentProfile): string {
  return [agent.name, agent.description, ...agent.skills.flatMap((s) => [s.name, s.description, ...s.tags])].join(
    ' . ',
  );
}

/** What stands for a name several cards use, when a text is embedded (CardVectors.masked). */
const SOMEONE = 'someone';

/**
 * Names (properNames' words that no English word list has) that the cards of two agents or more use:
 * a household's people ("Sofia" on the family locator's card, on the smart plugs' for her string
 * lights and on the school's for her grades). Such a name says nothing of which card a request is
 * for, but to the model it is much of a short line ("where's Sofia"): "is it muggy in Jaylen's room"
 * came nearest the locator's "is Jaylen home yet". A name only one card has is left as it is: it
 * says which card.
 */
function sharedNames(agents: readonly AgentProfile[]): ReadonlySet<string> {
  const users = new Map<string, Set<string>>();
  for (const agent of agents) {
    for (const word of anchorsOf(agent).flatMap((line) => properNames(line).flatMap((name) => name.split(' ')))) {
      const lower = word.toLowerCase();
      if (isEnglishWord(lower)) continue;
      const cards = users.get(lower) ?? new Set<string>();
      users.set(lower, cards.add(agent.id));
    }
  }
  return new Set([...users].filter(([, cards]) => cards.size >= 2).map(([name]) => name));
}

function fingerprint(anchors: string[]): string {
  return createHash('sha256').update(anchors.join('\n')).digest('base64url');
}

/**
 * The hosted cards as vectors: each agent's anchors (its description, skills, tags and examples),
 * embedded once per card version - a new agent set embeds only the cards it has not seen.
 * An agent's similarity to a request is that of its closest anchor.
 */
export class CardVectors {
  private readonly byAgent = new Map<
    string,
    {
      fingerprint: string;
      words: string;
      vectors: Float32Array[];
      mean: number;
      spread: number;
    }
  >();
  private background?: Float32Array[];
  /** Names several cards use (sharedNames), as they are written in any case. */
  private names: ReadonlySet<string> = new Set();
  /** The agent set (AgentHost.revision) last prepared in full. */
  private preparedKey?: unknown;

  constructor(private readonly encoder: SentenceEncoder) {}

  /**
   * Embeds the cards of `agents` not embedded yet (or changed), in one batch. With the `key` of
   * the agent set (AgentHost.revision) last prepared, nothing is looked at again. Tells whether
   * any card was embedded or forgotten.
   */
  async prepare(agents: readonly AgentProfile[], key?: unknown): Promise<boolean> {
    if (key !== undefined && key === this.preparedKey) return false;
    this.names = sharedNames(agents);
    const stale: { id: string; fingerprint: string; anchors: string[]; words: string }[] = [];
    for (const agent of agents) {
      const anchors = anchorsOf(agent).map((anchor) => this.masked(anchor));
      const print = fingerprint(anchors);
      if (this.byAgent.get(agent.id)?.fingerprint !== print)
        stale.push({ id: agent.id, fingerprint: print, anchors, words: wordsOf(agent) });
    }
    const present = new Set(agents.map((a) => a.id));
    const before = this.byAgent.size;
    for (const id of this.byAgent.keys()) if (!present.has(id)) this.byAgent.delete(id);
    if (!stale.length) {
      this.preparedKey = key;
      return this.byAgent.size !== before;
    }
    this.background ??= await this.encoder.embed([...CARD_BACKGROUND]);
    const vectors = await this.encoder.embed(stale.flatMap((s) => s.anchors));
    let at = 0;
    for (const entry of stale) {
      const own = vectors.slice(at, at + entry.anchors.length);
      at += entry.anchors.length;
      const closeness = this.background.map((request) => closest(request, own));
      const mean = closeness.reduce((sum, x) => sum + x, 0) / closeness.length;
      const variance = closeness.reduce((sum, x) => sum + (x - mean) ** 2, 0) / closeness.length;
      const spread = Math.sqrt(variance) || 1;
      this.byAgent.set(entry.id, {
        fingerprint: entry.fingerprint,
        words: entry.words,
        vectors: own,
        mean,
        spread,
      });
    }
    this.preparedKey = key;
    return true;
  }

  /**
   * `text` as it is embedded: each name several cards use (sharedNames) read as "someone", on
   * the cards' lines and on requests alike.
   */
  masked(text: string): string {
    if (!this.names.size) return text;
    return text.replace(/[\p{L}]+/gu, (word) => (this.names.has(word.toLowerCase()) ? SOMEONE : word));
  }

  /** The similarity of `vector` to the closest line of an agent's card; -1 for an agent not prepared. */
  similarity(vector: Float32Array, agentId: string): number {
    const entry = this.byAgent.get(agentId);
    return entry ? closest(vector, entry.vectors) : -1;
  }

  /** What an agent's card says it is for, in words (name, description, skills, tags); '' for an agent not prepared. */
  words(agentId: string): string {
    return this.byAgent.get(agentId)?.words ?? '';
  }

  /** The vectors of an agent's card lines (anchors); none for an agent not prepared. */
  lines(agentId: string): readonly Float32Array[] {
    return this.byAgent.get(agentId)?.vectors ?? [];
  }

  /** How far `vector` stands out for an agent's card (see rank); -Infinity for an agent not prepared. */
  standing(vector: Float32Array, agentId: string): number {
    const entry = this.byAgent.get(agentId);
    return entry ? (closest(vector, entry.vectors) - entry.mean) / entry.spread : -Infinity;
  }

  /**
   * Agents by how much `request` stands out for each, best first: its similarity to the agent's
   * closest anchor, in standard deviations above the agent's mean similarity to everyday requests
   * (`standing`). Agents not prepared are left out.
   */
  rank(request: Float32Array, agents: readonly AgentProfile[]): { id: string; similarity: number; standing: number }[] {
    const ranked: { id: string; similarity: number; standing: number }[] = [];
    for (const agent of agents) {
      const entry = this.byAgent.get(agent.id);
      if (!entry) continue;
      const similarity = closest(request, entry.vectors);
      ranked.push({ id: agent.id, similarity, standing: (similarity - entry.mean) / entry.spread });
    }
    return ranked.sort((a, b) => b.standing - a.standing);
  }
}

function closest(request: Float32Array, anchors: Float32Array[]): number {
  let best = -1;
  for (const vector of anchors) best = Math.max(best, cosine(request, vector));
  return best;
}
