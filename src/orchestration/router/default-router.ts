import type { AgentProfile } from '../../a2a/agent-profile';
import { ClauseVerdict, routeClauses } from './clause-routing';
import { CardTerms } from './card-terms';
import { namesDeliberately, withItsInitials, withItsParts } from './naming';
import {
  GENERIC_TERMS,
  isGenericAction,
  isGenericVerb,
  isOrder,
  isQuantity,
  saysWhat,
  stem,
  terms,
  termsOfWords,
  unquoted,
  words,
} from './text-analysis';
import { adjustsOnly, refersBack, verbActingOnIt } from './conversation-cues';
import type { Routing, RoutingRequest } from './routing';
import { TagParts } from './tag-parts';

/** Evidence (sum of weight × idf) at which confidence reaches ~63 % of its ceiling. */
const EVIDENCE_SCALE = 2.5;
/** Agents named in a clarifying question. */
const MAX_CANDIDATES = 3;
/** What a word corrected from a typo counts, against the word spelt right. */
const TYPO_WEIGHT = 0.8;
/** The most confidence generic words alone (GENERIC_TERMS) can give: below any sensible threshold. */
const GENERIC_ONLY_CEILING = 0.45;

interface Ranking {
  /** Agent indexes by descending score (only those with a score). */
  order: number[];
  scores: Float64Array;
  confidence: number;
  /** Did a name, tag or skill name match (not only descriptions and examples), with a word that is not generic? */
  strong: boolean;
  /** The request's specific terms the best agent's card has… */
  matched: number;
  /** …of which those saying what is asked, not which one ("play *next*" is one: isOrder). */
  matchedWhat: number;
  /** The request's words saying what is asked that the best agent's card does not have. */
  other: number;
  /** A specific term of the request is in the best agent's name ("put it on the *calendar*"). */
  named: boolean;
  /** The request's terms that are evidence of what is asked (not generic, not a quantity). */
  specific: string[];
  /**
   * A command the best card takes: the request's words saying what is done ("turn", "off"; a
   * verb among them, not only "up" as in "catch me up on current events") are all on that card,
   * and a word of its name, tags or skill names says to what ("turn off the tv *plug*"). The words
   * the card lacks then say which one ("tv"), not what is asked - unlike "*lower* the temperature"
   * beside a forecast's tag, or "why is the sky blue".
   */
  commanded: boolean;
  /** The best card has the request's strong words only as words of its tags of several (TagParts). */
  partOfTags: boolean;
}

/**
 * The built-in router: no LLM, no network. It ranks the hosted agents' cards against the request
 * with a weighted term index (BM25-like: a term counts by where it appears on a card and by how
 * few agents mention it), cuts multi-intent requests into clauses and routes each, and turns the
 * evidence and the margin over the runner-up into a confidence in 0..1:
 * `(1 − e^(−evidence / 2.5)) × (0.5 + 0.5 × margin)`. A request that matches nothing scores 0;
 * one that matches two agents equally scores at most 0.5. The index is built once per set of
 * agents; a decision touches only the postings of the request's terms, so its cost grows with
 * the number of agents that share those terms, at worst linearly.
 */
export class DefaultRouter {
  private readonly ids: string[];
  /** The cards' terms, weighted, and their typos (CardTerms). */
  private readonly cards: CardTerms;
  /** The words cards have only as part of a tag of several words ("seat heating"). */
  private readonly tagParts: TagParts;
  /**
   * The terms of each agent's name and its initials ("AH" of Albert Heijn) - not of its id: an id
   * is written for machines, and its words are the topic's ("trains" is not named by "book a
   * *train* ticket").
   */
  private readonly nameTerms: Set<string>[];
  /** The words of each agent's name as written, stopwords too ("just" of "Just Eat"). */
  private readonly nameWords: Set<string>[];

  constructor(agents: readonly AgentProfile[]) {
    this.ids = agents.map((a) => a.id);
    this.cards = new CardTerms(agents);
    this.tagParts = new TagParts(agents);
    const named = (agent: AgentProfile) => withItsParts(withItsInitials(agent.name));
    this.nameTerms = agents.map((agent) => new Set(terms(named(agent))));
    this.nameWords = agents.map((agent) => new Set(words(named(agent))));
  }

  get size(): number {
    return this.ids.length;
  }

  /** The hosted agents' ids, in host order. */
  get agentIds(): readonly string[] {
    return this.ids;
  }

  /** Whether an agent's card has any of these terms (stemmed). */
  cardHasAny(agentId: string, wanted: ReadonlySet<string>): boolean {
    const index = this.ids.indexOf(agentId);
    for (const term of wanted) if (this.cards.onCard(index, term)) return true;
    return false;
  }

  /** Whether an agent's card has a word of the text, spelt right or as a typo of a card word. */
  cardHasWordOf(agentId: string, text: string): boolean {
    const index = this.ids.indexOf(agentId);
    return termsOfWords(text).some(({ word, term }) => {
      const known = this.cards.known(term, word, text);
      return known !== undefined && this.cards.onCard(index, known);
    });
  }

  /** Whether the text names the agent deliberately (`namesDeliberately`), a typo of its name spelt out ("from *kroeger*"). */
  names(agentId: string, text: string): boolean {
    const index = this.ids.indexOf(agentId);
    return index >= 0 && namesDeliberately(this.nameTerms[index], this.spelledOut(text), this.nameWords[index]);
  }

  /** Whether a phrase is all words of an agent's name, not generic ones ("an *Uber*", "*Spotify*"). */
  isCalled(agentId: string, phrase: string): boolean {
    const name = this.nameTerms[this.ids.indexOf(agentId)];
    const said = terms(phrase);
    return name !== undefined && said.length > 0 && said.every((t) => name.has(t) && !GENERIC_TERMS.has(t));
  }

  /** What the sentence-embedding model reads of the request: typos of card words corrected (CardTerms.spelledOut). */
  spelledOut(text: string): string {
    return this.cards.spelledOut(text);
  }

  route(request: RoutingRequest): Routing {
    const whole = this.rank(request.text);
    const followUp = request.previousAgentId && this.ids.includes(request.previousAgentId);
    // What refers back stays with the conversation unless a word of another card's name, tags
    // or skills says otherwise - and a word the conversation's card has too ("make *them* blue"
    // after the lamp, against a shop of blue mugs) does not. What only adjusts what is going on
    // ("pause it", "louder") or does something to its thing ("close it again": actsOnlyOnIt) stays
    // unless it names another agent: a TV card's "pause" is not about the music playing.
    const previousIndex = followUp ? this.ids.indexOf(request.previousAgentId!) : -1;
    const adjusts = followUp && !whole.named && (adjustsOnly(request.text) || this.actsOnlyOnIt(request.text, whole));
    if (adjusts || (followUp && refersBack(request.text) && (!whole.strong || whole.scores[previousIndex] > 0))) {
      return {
        agentId: request.previousAgentId!,
        reasoning: adjusts
          ? 'The request adjusts what is going on and names no agent: its previous agent continues.'
          : 'The request refers back to the conversation and names no agent: its previous agent continues.',
        confidence: 0.8,
        candidates: [request.previousAgentId!],
        refersBack: true,
        ...(adjusts ? { adjusts } : {}),
      };
    }
    if (request.multiAgent) {
      const split = routeClauses(request.text, (clause) => this.byOwnWords(clause));
      if (split) return split;
    }
    const candidates = this.worthNaming(whole);
    if (!whole.order.length) {
      // Nobody to name: the question asks the user to say it another way instead.
      return {
        agentId: '',
        reasoning: 'No agent card matches any word of the request.',
        confidence: 0,
        candidates: [],
      };
    }
    const top = whole.order[0];
    const runnerUp = whole.order[1];
    return {
      agentId: this.ids[top],
      reasoning:
        `Best match for the request's terms (score ${whole.scores[top].toFixed(2)}` +
        (runnerUp === undefined
          ? ', no other agent matched)'
          : `; next ${this.ids[runnerUp]} at ${whole.scores[runnerUp].toFixed(2)})`),
      confidence: round(whole.confidence),
      candidates,
      evidenceTerms: whole.matchedWhat,
      otherTerms: whole.other,
      namesAgent: whole.named || undefined,
      commandsAgent: whole.commanded || undefined,
      partOfTags: whole.partOfTags || undefined,
    };
  }

  /**
   * Whether the request does something to the conversation's thing, another card's only word its
   * verb ("close *it* again" after the garage door: "close" is the air-con zones' tag): it stays.
   */
  private actsOnlyOnIt(text: string, whole: Ranking): boolean {
    const verb = verbActingOnIt(text);
    return verb !== undefined && whole.specific.every((t) => t === stem(verb) || !this.cards.has(t));
  }

  /**
   * The agents worth naming in a question, best first: those whose cards have a word of the
   * request that is not generic ("did the Lakers pull it *off*" names no light switch).
   */
  private worthNaming(ranking: Ranking): string[] {
    return ranking.order
      .filter((agent) => ranking.specific.some((t) => this.cards.onCard(agent, t)))
      .slice(0, MAX_CANDIDATES)
      .map((i) => this.ids[i]);
  }

  /** A clause by its own card words: its best agent, and whether they decide it (a strong word, or confidence ≥ 0.5). */
  private byOwnWords(clause: string): ClauseVerdict {
    const ranking = this.rank(clause);
    const top = ranking.order[0];
    return {
      best: top === undefined ? undefined : this.ids[top],
      own: top !== undefined && (ranking.strong || ranking.confidence >= 0.5),
      confidence: ranking.confidence,
      // So is a clause whose strong words its card has only as parts of tags ("put the *heating* down": TagParts).
      oneWordAmongOthers:
        (ranking.matchedWhat <= 1 && ranking.other > 0 && !ranking.named && !ranking.commanded) ||
        (ranking.partOfTags && !ranking.named),
      candidates: () => this.worthNaming(ranking),
    };
  }

  private rank(request: string): Ranking {
    // What the request quotes is what is said, not what is asked (unquoted).
    const text = unquoted(request);
    const scores = new Float64Array(this.ids.length);
    const touched: number[] = [];
    // A word no card has may be a typo of one that some card has ("paly" → "play").
    const weighted = new Map<string, number>();
    const what = new Set<string>();
    /** The card term each word is, spelt right or corrected. */
    const known = new Map<string, string>();
    for (const { word, term } of termsOfWords(text)) {
      const corrected = this.cards.has(term) ? undefined : this.cards.corrected(term, word, text);
      const [key, factor] = corrected ? [corrected, TYPO_WEIGHT] : [term, 1];
      weighted.set(key, Math.max(weighted.get(key) ?? 0, factor));
      if (saysWhat(word)) what.add(key);
      if (this.cards.has(key)) known.set(word, key);
    }
    // Two words a card writes as one ("check out" → "checkout", "play list" → "playlist"), and
    // two a card writes one after the other ("open the *garage door*").
    const all = words(text);
    const compounds = all.slice(1).map((word, i) => stem(all[i] + word));
    for (const together of [...compounds.filter((c) => this.cards.has(c)), ...this.cards.phrasesIn(all, known)]) {
      weighted.set(together, 1);
      what.add(together);
    }
    const queryTerms = [...weighted.keys()];
    // Generic words and those saying how many ("add *two* mugs") are no evidence of what is asked.
    const specificTerms = queryTerms.filter((t) => !GENERIC_TERMS.has(t) && !isQuantity(t));
    // A name the request writes as one, that only one card has, says which card ("where's *Floss*").
    const names = this.cards.ownNamesIn(text);
    for (const [term, factor] of weighted) {
      const own = names.get(term);
      for (const { agent, weight } of this.cards.postingsOf(term)) {
        if (scores[agent] === 0) touched.push(agent);
        scores[agent] += (own?.agent === agent ? Math.max(weight, own.weight) : weight) * factor;
      }
    }
    // A card that has a word saying what is asked comes before one that has only generic words
    // ("pick up where I left *off* in my *book*": the audiobooks, not the light switch).
    const specific = new Set(touched.filter((agent) => specificTerms.some((t) => this.cards.onCard(agent, t))));
    const order = touched.sort(
      (a, b) => Number(specific.has(b)) - Number(specific.has(a)) || scores[b] - scores[a] || a - b,
    );
    if (!order.length)
      return {
        order,
        scores,
        confidence: 0,
        strong: false,
        matched: 0,
        matchedWhat: 0,
        other: what.size,
        named: false,
        specific: [],
        commanded: false,
        partOfTags: false,
      };
    const best = scores[order[0]];
    const second = order.length > 1 ? scores[order[1]] : 0;
    const margin = Math.max(0, best - second) / best;
    let confidence = (1 - Math.exp(-best / EVIDENCE_SCALE)) * (0.5 + 0.5 * margin);
    const top = order[0];
    // Evidence from generic words alone does not decide, nor outweigh a conversation.
    const onCard = (term: string) => this.cards.onCard(top, term);
    const matchedTerms = specificTerms.filter(onCard);
    const matched = matchedTerms.length;
    const matchedWhat = matchedTerms.filter((t) => !isOrder(t)).length;
    if (!matched) confidence = Math.min(confidence, GENERIC_ONLY_CEILING);
    const strong = matched > 0 && specificTerms.some((t) => this.cards.isStrong(top, t) || names.get(t)?.agent === top);
    const named = specificTerms.some((t) => this.nameTerms[top].has(t));
    const other = [...what].filter((t) => !onCard(t)).length;
    const actions = queryTerms.filter(isGenericAction);
    const strongMatched = matchedTerms.filter((t) => this.cards.isStrong(top, t));
    const partOfTags = this.tagParts.onlyParts(top, strongMatched, weighted);
    const commanded =
      actions.some(isGenericVerb) &&
      actions.every(onCard) &&
      matchedTerms.some((t) => !isOrder(t) && this.cards.isStrong(top, t));
    return {
      order,
      scores,
      confidence,
      strong,
      matched,
      matchedWhat,
      other,
      named,
      specific: specificTerms,
      commanded,
      partOfTags,
    };
  }
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
