import type { AgentProfile } from '../../../a2a/agent-profile';
import type { DefaultRouter } from '../default-router';
import type { Routing } from '../routing';
import { CardVectors } from './card-vectors';
import { DomainMap, DomainVerdict } from './domain-map';
import { framedDomain } from './everyday-domains';
import { isFragment } from '../text-analysis';
import { SentenceEncoder } from './sentence-encoder';

/**
 * How far a request must stand out for a card (standard deviations above the card's mean
 * similarity to everyday requests: CardVectors) before meaning counts for it at all.
 */
export const MIN_STANDING = 1.2;
/** How close (cosine) the nearest everyday request must be before the request's domain counts at all. */
const DOMAIN_MIN = 0.5;
/**
 * How close (cosine) an everyday request is when it asks what the request asks, in other words
 * ("I'm freezing" and "I am freezing": 0.81; "set the heating to 20 degrees" and "turn the heating
 * on": 0.79), not only something near it ("vacuum the lounge" and "make it cosy in the lounge": 0.66).
 */
export const NEAR_REQUEST = 0.7;
/**
 * The lead (cosine) of the nearest everyday request over the nearest of another outcome (DomainVerdict.lead)
 * at which the domain alone reaches the default threshold (0.7).
 */
const DOMAIN_LEAD = 0.03;
/** The lead over the runner-up, in the same unit, at which meaning alone reaches the default threshold (0.7). */
const DECISIVE_LEAD = 0.5;
/** Agents named in a clarifying question. */
export const MAX_CANDIDATES = 3;
/**
 * What card words count when a single one of them matched beside others (oneWordAmongOthers) and
 * the meaning points elsewhere ("why is the sky *blue*" against a shop selling blue mugs).
 */
const ONE_WORD_DISCOUNT = 0.75;
/**
 * How much card words pointing to another agent take off the meaning's confidence, per unit of
 * their own confidence above 0.5 ("what's the *air* pressure in my tyres": an air-quality tag
 * against a thermostat's card by meaning - neither is right).
 */
const CONTRADICTION = 0.5;
/**
 * How much more the meaning alone must show for a card (its confidence, against the threshold)
 * when the request's everyday domain is one the card is not placed in, clearly - the domain alone
 * reaches the threshold: "how many calories are in an avocado" stands out for a grocer's card
 * (1.55 σ, 0.79), but its nearest everyday request is a calculation no agent serves.
 */
const AGAINST_DOMAIN = 0.15;
/**
 * How near an everyday request, and by what lead, a request framed as a domain's (framedDomain:
 * "remind me to call the landlord") counts: as one asking what it asks (NEAR_REQUEST), with the
 * domain alone surer than a confidence can be (cap) - the framing says what is asked; the model,
 * reading what the reminder is about, puts it nearer "make sure the house is locked" (0.63) than
 * any reminder (0.60). Card words and a card that both point elsewhere may still outweigh it
 * (servedDomainTakes): "remind me to feed the cat" beside a pet feeder that feeds on a schedule.
 */
const FRAMED = { similarity: NEAR_REQUEST, lead: 3 * DOMAIN_LEAD };
/** Card words that count for nothing. */
const NO_WORDS: Routing = { agentId: '', reasoning: '', confidence: 0, candidates: [] };

export interface Judgement {
  /** The agent this text goes to, if any is clear enough. */
  agentId?: string;
  /** The everyday domain, served by no hosted agent, this text clearly belongs to. */
  outOfScope?: string;
  /** How far the text stands out for each agent's card (CardVectors.rank). */
  standing: Map<string, number>;
  /** The agent serving the everyday domain the text is nearest (DomainMap), if any… */
  domainAgent?: string;
  /** …and how close (cosine) the nearest everyday request is. */
  domainSimilarity: number;
  /** The agent the card words alone would choose, if they chose one. */
  wordsAgent?: string;
  confidence: number;
  /** Agents worth naming in a question, best first. */
  candidates: string[];
  reasoning: string;
  /** What the meaning alone says (the part of `reasoning` after the card words'). */
  meaning: string;
}

/**
 * What a text's words and meaning say together (SemanticStage's evidence): the card words
 * (DefaultRouter), how far the text stands out for each card (CardVectors) and the everyday
 * domain it belongs to with the agent serving it (DomainMap). The cards and the domains are
 * embedded once per agent set (`prepare`), each text once per decision (`judge`, one batch).
 */
export class Evidence {
  private readonly cards: CardVectors;
  private readonly domains: DomainMap;
  private domainsAssigned = false;

  constructor(
    private readonly encoder: SentenceEncoder,
    private readonly threshold: number,
  ) {
    this.cards = new CardVectors(encoder);
    this.domains = new DomainMap(encoder);
  }

  /**
   * Embeds the cards of `agents` not embedded yet (and the everyday requests they are measured
   * against), and decides which agent serves each everyday domain when the cards changed. With
   * the `key` of the agent set last prepared (AgentHost.revision), nothing is looked at again.
   */
  async prepare(agents: readonly AgentProfile[], key?: unknown): Promise<void> {
    const changed = await this.cards.prepare(agents, key);
    if (changed || !this.domainsAssigned) {
      await this.domains.assign(
        agents.map((a) => a.id),
        this.cards,
      );
      this.domainsAssigned = true;
    }
  }

  /** Words and meaning together, for each text (one batch for the model). */
  async judge(texts: string[], router: DefaultRouter, agents: readonly AgentProfile[]): Promise<Judgement[]> {
    const spelled = texts.map((t) => router.spelledOut(t));
    const vectors = await this.encoder.embed(spelled.map((t) => this.cards.masked(t)));
    return texts.map((text, i) => {
      const words = router.route({ text, multiAgent: false });
      const ranked = this.cards.rank(vectors[i], agents);
      const [best, next] = ranked;
      const near = ranked.filter((r) => r.standing >= MIN_STANDING).slice(0, MAX_CANDIDATES);
      const lead = best ? best.standing - (next?.standing ?? 0) : 0;
      // Each kind of meaning by its lead (uncapped, to compare them), then capped as a confidence.
      let meaningAgent = best?.id;
      let byCard = best && best.standing >= MIN_STANDING ? 0.5 + (0.2 * lead) / DECISIVE_LEAD : 0;
      // The everyday domain the request belongs to, and the agent serving it if any.
      const framed = framedDomain(spelled[i]);
      let domain: DomainVerdict | undefined = framed
        ? { domain: framed, agentId: this.domains.agentFor(framed), nearest: '', ...FRAMED }
        : this.domains.classify(vectors[i]);
      // A domain no agent serves is the card's that claims it (DomainMap.claimant) for a request
      // that stands out for that card most and has its words (a thermostat's card claiming the
      // energy beside a smart home that comes as near it): what the card is about, not something
      // the hub cannot do. Not the rest of the domain (no word of the claiming card).
      if (domain && !domain.agentId && best && best.standing >= MIN_STANDING && words.agentId === best.id) {
        if (this.domains.claimant(domain.domain) === best.id) domain = { ...domain, agentId: best.id };
      }
      const byDomain = domain && domain.similarity >= DOMAIN_MIN ? 0.5 + (0.2 * domain.lead) / DOMAIN_LEAD : 0;
      let offCard = false;
      let weighed = words;
      if (domain && byDomain > 0) {
        if (domain.agentId === undefined) {
          const near = { confidence: byDomain, similarity: domain.similarity };
          if (unservedDomainTakes(near, { agentId: best?.id, confidence: byCard }, words, this.threshold)) {
            // One card word among others that spoke for that card was weighed with it, and lost:
            // it does not decide again on its own ("is it going to *rain* this weekend" is the
            // weather's, not a sprinkler's with a rain delay; "skip the *watering* and what's the
            // weather" still has the sprinkler's words for one of its parts).
            if (words.agentId !== '' && words.agentId === best?.id && oneWordAmongOthers(words)) weighed = NO_WORDS;
            [offCard, byCard] = [true, 0];
          }
        } else if (domain.agentId === meaningAgent) byCard = 1 - (1 - cap(byCard)) * (1 - cap(byDomain));
        else if (servedDomainTakes(text, byDomain, { agentId: best?.id, confidence: byCard }, words)) {
          [meaningAgent, byCard] = [domain.agentId, byDomain];
        }
      }
      const meaning = cap(byCard);
      const described =
        (best
          ? `closest card by meaning ${best.id} (${best.standing.toFixed(2)} σ${next ? `; next ${next.id} at ${next.standing.toFixed(2)} σ` : ''})`
          : 'no card to compare') +
        (domain
          ? `; ${framed ? 'framed as an everyday request' : `nearest everyday request "${domain.nearest}"`} (${domain.domain}, ${domain.agentId ? `served by ${domain.agentId}` : 'served by no agent'}, ${domain.similarity.toFixed(2)}, lead ${domain.lead.toFixed(2)})`
          : '');
      const combined = combine(text, weighed, { agentId: meaningAgent, confidence: meaning, offCard }, this.threshold);
      const { agentId } = combined;
      // The closest card by meaning alone (no card word agreeing), against a domain it is not placed in: a higher bar.
      const againstItsDomain = agentId === best?.id && domain !== undefined && domain.agentId !== agentId;
      const confidence =
        againstItsDomain && words.agentId !== agentId
          ? againstDomain(combined.confidence, byDomain, this.threshold)
          : combined.confidence;
      const decided = agentId !== undefined && confidence >= this.threshold;
      return {
        agentId: decided ? agentId : undefined,
        outOfScope: offCard && !decided && cap(byDomain) >= this.threshold ? domain!.domain : undefined,
        standing: new Map(ranked.map((r) => [r.id, r.standing])),
        domainAgent: byDomain > 0 ? domain?.agentId : undefined,
        domainSimilarity: domain?.similarity ?? 0,
        wordsAgent: words.agentId || undefined,
        confidence,
        candidates: merge(
          near.map((r) => r.id),
          words.candidates,
        ),
        reasoning: `${words.reasoning}; ${described}`,
        meaning: described,
      };
    });
  }
}

/**
 * One card word beside words the card does not have ("why is the sky *blue*") is weak evidence,
 * unless it names the agent ("put soccer practice on the *calendar*") or the request is a command
 * the card takes ("turn off the tv *plug*": Routing.commandsAgent) - and so are card words saying
 * only which one ("when is the *next* Arsenal match": a player's tag, the match on no card), or
 * that the card has only as part of a tag of several words ("set the *heating* to 20" beside a
 * car's "seat heating": Routing.partOfTags).
 */
export function oneWordAmongOthers(words: Routing): boolean {
  if (words.partOfTags && !words.namesAgent) return true;
  const what = words.evidenceTerms;
  return what !== undefined && what <= 1 && (words.otherTerms ?? 0) > 0 && !words.namesAgent && !words.commandsAgent;
}

/**
 * The agent the card words and the meaning give together: the one both point to, their
 * confidences adding up; else the stronger - the card words, counting less when they are one
 * word among others, or whenever they decide on their own (wordsDecide); else the meaning.
 */
export function combine(
  text: string,
  words: Routing,
  meaning: { agentId?: string; confidence: number; offCard: boolean },
  threshold: number,
): { agentId?: string; confidence: number } {
  const agree = words.agentId !== '' && words.agentId === meaning.agentId && !meaning.offCard;
  if (agree) return { agentId: words.agentId, confidence: 1 - (1 - words.confidence) * (1 - meaning.confidence) };
  const byWords = wordsConfidence(words);
  if (byWords >= meaning.confidence || (wordsDecide(words, threshold) && !isFragment(text))) {
    return { agentId: words.agentId || undefined, confidence: byWords };
  }
  // The meaning against card words that point elsewhere, nearly as confidently: each doubts the other.
  const contradicted = words.agentId !== '' && meaning.agentId !== undefined && !meaning.offCard;
  return {
    agentId: meaning.agentId,
    confidence: contradicted ? meaning.confidence * doubt(byWords) : meaning.confidence,
  };
}

/**
 * Whether a domain no hosted agent serves, `domain.confidence` as its lead says (uncapped), takes the
 * request from the closest card by meaning (`card`: its confidence uncapped). The card words count
 * for that card too when they point to it ("ad coffee to my *trolly*": a grocery card by its tag and
 * by meaning, though "make me a coffee", an appliance's, is the nearest everyday request). And when
 * they point to a card the request clearly stands out for (its lead alone reaches the threshold),
 * the domain's lead counts only as far as its nearest everyday request asks what the request asks:
 * in full from NEAR_REQUEST, nothing at DOMAIN_MIN. "get the *hoover* going in the lounge" (the robot
 * vacuum's card, 2.83 σ against 1.23 σ: 1.14, and one of its words, 0.97 together) is not the
 * lighting's for "make it cosy in the lounge" (0.69, lead 0.01: 0.57): a place is not what is asked. "how
 * do you say *recipe* in French" (a recipe card, 2.09 σ against 0.21 σ, and one of its words) is the
 * translation's: "how do you say good morning in French" is 0.72 near. Short of NEAR_REQUEST, such a
 * domain is no surer than a confidence can be (cap) against card words that are not weak evidence
 * (oneWordAmongOthers): "set the *geyser* to 60 degrees" (a water heater's tag, a command its card
 * takes, and its card 5.87 σ against 2.81 σ) is not the climate's for "knock the temperature down a
 * couple of degrees" (0.67, lead 0.21: 1.69 as counted) - it is about something else that has a
 * temperature. Near misses whose card is not clear ("*book* a table for two at 8": a shop's card,
 * 2.10 σ against 2.02 σ) are left to the lead.
 */
export function unservedDomainTakes(
  domain: { confidence: number; similarity: number },
  card: { agentId?: string; confidence: number },
  words: Routing,
  threshold: number,
): boolean {
  if (!agrees(card, words) || card.confidence < threshold) return domain.confidence >= together(card, words);
  const nearness = Math.min(1, Math.max(0, (domain.similarity - DOMAIN_MIN) / (NEAR_REQUEST - DOMAIN_MIN)));
  const counted = 0.5 + (domain.confidence - 0.5) * nearness;
  // Short of asking the same, the domain is no surer than a confidence can be (cap) against card
  // words that decide something (not one word among others) for a card as clear.
  return (nearness < 1 && !oneWordAmongOthers(words) ? cap(counted) : counted) >= together(card, words);
}

/**
 * Whether a domain another agent serves, as near as `byDomain` says, takes the request from the
 * closest card by meaning (`card`: its confidence uncapped): by their leads when only the meaning
 * speaks for the card ("I'm freezing": a weather card at 1.83 σ, the heating's domain served by the
 * smart-home card). When card words that decide something (not weak evidence: oneWordAmongOthers,
 * a fragment) point to that card too, the domain must be surer than both together, and no lead
 * makes it surer than a confidence can be (cap): its lead over the nearest request of another
 * outcome says what kind of request this is, not which of two cards it is for. "make me a
 * *coffee*": two of a coffee machine's card words (0.69) and its card (4.18 σ against 2.41 σ: 1.21),
 * though the nearest everyday request is, word for word, in the appliances' domain another card
 * serves (lead 0.47: 3.63). Weak card words leave it to the leads: "set the *heating* to 20" stays
 * the climate domain's against a car's "seat heating" and its card (3.11 σ against the
 * thermostat's 2.78 σ); "I need to get up early *tomorrow*" is not the calendar's by a word saying
 * only when. Unlike a domain no agent serves (unservedDomainTakes: a question at worst), one that
 * takes the request gives it to another agent: the costlier mistake.
 */
export function servedDomainTakes(
  text: string,
  byDomain: number,
  card: { agentId?: string; confidence: number },
  words: Routing,
): boolean {
  const decisive = agrees(card, words) && !oneWordAmongOthers(words) && !isFragment(text);
  return decisive ? cap(byDomain) > together(card, words) : byDomain > card.confidence;
}

/** Whether the card words point to the closest card, and the request stands out for it (a confidence). */
function agrees(card: { agentId?: string; confidence: number }, words: Routing): boolean {
  return words.agentId !== '' && words.agentId === card.agentId && card.confidence > 0;
}

/** The closest card's confidence (uncapped), with the card words' when they point to it too. */
function together(card: { agentId?: string; confidence: number }, words: Routing): number {
  return agrees(card, words) ? 1 - (1 - cap(card.confidence)) * (1 - wordsConfidence(words)) : card.confidence;
}

/**
 * The meaning's confidence for the closest card when the request's everyday domain, `byDomain`
 * confident, is one the card is not placed in and no card word agrees: it must clear the
 * threshold by up to AGAINST_DOMAIN - all of it when the domain alone reaches the
 * threshold, nothing when the domain barely counts (0.5: its nearest request no nearer than one of
 * another outcome). A request the model puts near a card's lines and, as clearly, among everyday
 * requests the card does not serve is a near miss as often as not; asking costs the user less
 * than the wrong agent acting.
 */
export function againstDomain(byCard: number, byDomain: number, threshold: number): number {
  const clear = Math.min(1, Math.max(0, (byDomain - 0.5) / (threshold - 0.5)));
  return Math.max(0, byCard - AGAINST_DOMAIN * clear);
}

/** What the card words count: less when they are one word among others (oneWordAmongOthers). */
function wordsConfidence(words: Routing): number {
  return oneWordAmongOthers(words) ? words.confidence * ONE_WORD_DISCOUNT : words.confidence;
}

/** What evidence for another agent takes off a confidence: nothing below 0.5, a tenth at 0.7. */
function doubt(against: number): number {
  return 1 - CONTRADICTION * Math.max(0, against - 0.5);
}

/**
 * Card words that decide on their own - confident, and not one word among others - decide
 * against the meaning too: a clause of a split request ("play the match-day *playlist*") as the
 * same words alone would, which never reach the model. (Not a fragment of one word, "play jazz
 * and *blues*": SemanticStage.decided.)
 */
function wordsDecide(words: Routing, threshold: number): boolean {
  return words.agentId !== '' && words.confidence >= threshold && !oneWordAmongOthers(words);
}

/** Candidates from both kinds of evidence, each once, at most MAX_CANDIDATES. */
export function merge(first: string[], second: string[]): string[] {
  return [...new Set([...first, ...second])].slice(0, MAX_CANDIDATES);
}

/** Evidence as a confidence: never certain. */
export function cap(value: number): number {
  return Math.min(0.95, value);
}
