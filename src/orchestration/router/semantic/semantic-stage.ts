import type { AgentProfile } from '../../../a2a/agent-profile';
import type { DefaultRouter, Routing, RoutingRequest } from '../default-router';
import { clauses, terms } from '../text-analysis';
import { CardVectors } from './card-vectors';
import { SentenceEncoder } from './sentence-encoder';

/**
 * How far a request must stand out for a card (standard deviations above the card's mean
 * similarity to everyday requests: CardVectors) before meaning counts for it at all.
 */
const MIN_STANDING = 1.2;
/**
 * How much nearer (in cosine similarity) an everyday request (EVERYDAY_REQUESTS) must be to a
 * request than anything on a card before the request is taken as that everyday thing, not as the
 * card's - provided the card does not cover that everyday request (EverydayNeighbour.covered).
 */
const EVERYDAY_MARGIN = 0.15;
/** The lead over the runner-up, in the same unit, at which meaning alone reaches the default threshold (0.7). */
const DECISIVE_LEAD = 0.5;
/** With a conversation going on, a request this short is taken as part of it unless its words decide. */
const FOLLOW_UP_WORDS = 3;
/** Agents named in a clarifying question. */
const MAX_CANDIDATES = 3;
/**
 * What card words count when a single one of them matched and the meaning points elsewhere
 * ("why is the sky *blue*" against a shop selling blue mugs).
 */
const ONE_WORD_DISCOUNT = 0.75;

interface Judgement {
  /** The agent this text goes to, if any is clear enough. */
  agentId?: string;
  confidence: number;
  /** Agents worth naming in a question, best first. */
  candidates: string[];
  reasoning: string;
}

/**
 * The second stage of the built-in router: when the card words do not decide a request (no
 * agent, low confidence, or a clause left unplaced), the request - its typos spelt
 * out as the cards spell them - is compared by meaning with every hosted card, and the two kinds
 * of evidence are combined. Meaning is measured as how far the request stands out for a card
 * (CardVectors: standard deviations above the card's similarity to everyday requests), so a card
 * rich in examples does not win every request. Meaning alone decides by the lead of the best card
 * over the next (`0.5 + 0.2 × lead / 0.5`: a lead of 0.5 σ reaches the default threshold), never
 * when even the best card stands out less than 1.2 σ, nor when the request is clearly nearer an
 * everyday request that card does not cover than anything on it (CardVectors.everydayNeighbour:
 * "pay the electricity bill" is paying a bill, not the smart home); when the words and the meaning point to the
 * same agent their confidences add up (`1 − (1 − a)(1 − b)`), and a single card word that the
 * meaning contradicts counts less (in a clause, or a request the words left unsure). In a conversation, a short request ("louder", "and
 * tomorrow?") stays with the conversation's agent unless its words decide.
 */
export class SemanticStage {
  private readonly cards: CardVectors;

  constructor(
    private readonly encoder: SentenceEncoder,
    private readonly threshold: number,
  ) {
    this.cards = new CardVectors(encoder);
  }

  /**
   * Whether the card words already decided - confidently, each clause placed: then the model is
   * not consulted, and a direct command costs no embedding (a single strong card word decides too:
   * asking the model about those cost every such command ~12 ms for one utterance in 250).
   */
  decided(request: RoutingRequest, routing: Routing): boolean {
    return (
      routing.agentId !== '' &&
      routing.confidence >= this.threshold &&
      !routing.unplaced &&
      // A request of several clauses the words did not split may hide an intent they missed.
      !(request.multiAgent && !routing.parts && clauses(request.text).length >= 2)
    );
  }

  /** Embeds the cards of `agents` not embedded yet (and the everyday requests they are measured against). */
  prepare(agents: readonly AgentProfile[]): Promise<void> {
    return this.cards.prepare(agents);
  }

  /**
   * `key` identifies the agent set (AgentHost.revision): while it stays the same, the cards are
   * not looked at again. The clauses of a request and the whole of it are embedded in one batch:
   * one trip to the model's worker per decision.
   */
  async refine(
    request: RoutingRequest,
    lexical: Routing,
    router: DefaultRouter,
    agents: readonly AgentProfile[],
    key?: unknown,
  ): Promise<Routing> {
    if (request.previousAgentId && lexical.confidence < this.threshold) {
      if (terms(request.text).length <= FOLLOW_UP_WORDS && request.text.split(/\s+/).length <= FOLLOW_UP_WORDS)
        return lexical;
    }
    await this.cards.prepare(agents, key);
    const parts = request.multiAgent ? clauses(request.text) : [];
    const split = parts.length >= 2;
    const judged = await this.judge(split ? [...parts, request.text] : [request.text], router, agents);
    const judgement = judged[judged.length - 1];
    if (split) {
      const routing = this.routeClauses(parts, judged.slice(0, -1));
      if (routing) return routing;
    }
    // Undecided: the words' answer, no more confident than both kinds of evidence together.
    const undecided = (): Routing => ({
      ...lexical,
      reasoning: judgement.reasoning,
      confidence: round(Math.min(lexical.confidence, judgement.confidence)),
      candidates: merge(lexical.candidates, judgement.candidates),
      semantic: true,
    });
    if (!judgement.agentId) return undecided();
    if (
      request.previousAgentId &&
      judgement.agentId !== request.previousAgentId &&
      judgement.confidence < this.threshold
    )
      return undecided();
    return {
      agentId: judgement.agentId,
      reasoning: judgement.reasoning,
      confidence: round(judgement.confidence),
      candidates: judgement.candidates,
      semantic: true,
    };
  }

  /** Each clause by its own words and meaning; undefined unless the clauses go to two agents or some stay unplaced beside one. */
  private routeClauses(parts: string[], judged: Judgement[]): Routing | undefined {
    const chosen = new Map<string, { text: string[]; confidence: number }>();
    const unplaced: { text: string; candidates: string[] }[] = [];
    let last: string | undefined;
    judged.forEach((judgement, i) => {
      const part = parts[i];
      // A fragment of one word ("play jazz and *blues*") belongs to the clause before it.
      const agentId = judgement.agentId ?? (terms(part).length <= 1 ? last : undefined);
      if (!agentId) {
        if (terms(part).length > 1) unplaced.push({ text: part, candidates: judgement.candidates });
        return;
      }
      const entry = chosen.get(agentId) ?? { text: [], confidence: 1 };
      entry.text.push(part);
      if (judgement.agentId) entry.confidence = Math.min(entry.confidence, judgement.confidence);
      chosen.set(agentId, entry);
      last = agentId;
    });
    if (chosen.size === 0 || (chosen.size < 2 && unplaced.length === 0)) return undefined;
    const [primary, ...additional] = [...chosen.keys()];
    const routed = [...chosen].map(([id, c]) => `"${c.text.join(', ')}" → ${id}`);
    const asked = unplaced.map((u) => `"${u.text}" → ?`);
    return {
      agentId: primary,
      additionalAgents: additional.length ? additional : undefined,
      reasoning: `The request has ${chosen.size + unplaced.length} intents, by their words and meaning: ${[...routed, ...asked].join('; ')}`,
      confidence: round(Math.min(...[...chosen.values()].map((c) => c.confidence))),
      candidates: [...chosen.keys()],
      parts: Object.fromEntries([...chosen].map(([id, c]) => [id, c.text.join(' and ')])),
      unplaced: unplaced.length ? unplaced : undefined,
      semantic: true,
    };
  }

  /** Words and meaning together, for each text (one batch for the model). */
  private async judge(texts: string[], router: DefaultRouter, agents: readonly AgentProfile[]): Promise<Judgement[]> {
    const vectors = await this.encoder.embed(texts.map((t) => router.spelledOut(t)));
    return texts.map((text, i) => {
      const words = router.route({ text, multiAgent: false });
      const ranked = this.cards.rank(vectors[i], agents);
      const [best, next] = ranked;
      const near = ranked.filter((r) => r.standing >= MIN_STANDING).slice(0, MAX_CANDIDATES);
      const lead = best ? best.standing - (next?.standing ?? 0) : 0;
      // Nearer an everyday request the card does not cover than anything on the card: not for it
      // ("pay the electricity bill" is "pay the rent", not the smart home's).
      const everyday = best && this.cards.everydayNeighbour(vectors[i], best.id, MIN_STANDING);
      const offCard =
        everyday !== undefined && !everyday.covered && everyday.similarity > everyday.cardSimilarity + EVERYDAY_MARGIN;
      const meaning =
        best && best.standing >= MIN_STANDING && !offCard ? Math.min(0.95, 0.5 + (0.2 * lead) / DECISIVE_LEAD) : 0;
      const described = best
        ? `closest card by meaning ${best.id} (${best.standing.toFixed(2)} σ${next ? `; next ${next.id} at ${next.standing.toFixed(2)} σ` : ''})` +
          (offCard ? `, but nearer "${everyday.text}", which that card does not cover` : '')
        : 'no card to compare';
      let agentId: string | undefined;
      let confidence: number;
      const agree = words.agentId !== '' && words.agentId === best?.id && !offCard;
      const byWords =
        (words.evidenceTerms ?? 2) <= 1 && !agree ? words.confidence * ONE_WORD_DISCOUNT : words.confidence;
      if (agree) {
        agentId = words.agentId;
        confidence = 1 - (1 - words.confidence) * (1 - meaning);
      } else if (byWords >= meaning) {
        agentId = words.agentId || undefined;
        confidence = byWords;
      } else {
        agentId = best?.id;
        confidence = meaning;
      }
      const decided = agentId !== undefined && confidence >= this.threshold;
      return {
        agentId: decided ? agentId : undefined,
        confidence,
        candidates: merge(
          near.map((r) => r.id),
          words.candidates,
        ),
        reasoning: `${words.reasoning}; ${described}`,
      };
    });
  }
}

/** Candidates from both kinds of evidence, each once, at most MAX_CANDIDATES. */
function merge(first: string[], second: string[]): string[] {
  return [...new Set([...first, ...second])].slice(0, MAX_CANDIDATES);
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
