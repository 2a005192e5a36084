import type { AgentProfile } from '../../../a2a/agent-profile';
import { requestedAction } from '../actions';
import { splitRouting } from '../clause-routing';
import type { DefaultRouter } from '../default-router';
import type { Routing, RoutingRequest } from '../routing';
import { clauses, namesAThingOnly } from '../clauses';
import { isFragment, terms } from '../text-analysis';
import { asksWhatFollows, isContext, leavesOutItsThing, pointsAt, standsAlone } from '../conversation-cues';
import { Evidence, Judgement, merge, MIN_STANDING, NEAR_REQUEST, oneWordAmongOthers } from './evidence';
import { SentenceEncoder } from './sentence-encoder';

/** With a conversation going on, a request this short is taken as part of it unless its words decide… */
const FOLLOW_UP_WORDS = 3;
/**
 * …or its meaning points elsewhere at least this confidently, to the agent of its everyday domain,
 * with an everyday request at least this close (cosine): "I'm cold" is a topic of its own; "how
 * many does it serve", after a recipe, only looks like "how much does it cost".
 */
const CLEARLY_ELSEWHERE = 0.9;
const FOLLOW_UP_DOMAIN_MIN = NEAR_REQUEST;
/** …or, instead of the domain, standing out this far (σ) for the other agent's card ("is *it* cold out" after a song). */
const CLEARLY_ON_CARD = 2;
/**
 * …and a request that stands out for the conversation's agent too leaves it for the agent of its
 * everyday domain when it stands out for that agent's card this much more (σ): "how low's it
 * supposed to get outside tonight" after a thermostat (1.51 σ) is the weather card's (3.66 σ).
 * (1, 1.5 and 2 moved the same items on every dev split.)
 */
const OUTGROWN_BY = 1.5;

/**
 * The second stage of the built-in router: when the card words do not decide a request (no
 * agent, low confidence, one card word beside words no card has, a clause left unplaced, a
 * request that may refer back to the conversation), the request - its typos spelt out as the
 * cards spell them - is compared by meaning with every hosted card and with everyday requests
 * of many domains, and the kinds of evidence are combined:
 * - the cards: how far the request stands out for each (CardVectors: standard deviations above
 *   the card's similarity to everyday requests), so a card rich in examples does not win every
 *   request; by the best card's lead over the next (`0.5 + 0.2 × lead / 0.5`), never below 1.2 σ;
 * - the domain of the nearest everyday request (DomainMap): "I'm freezing" is the heating, served
 *   by the smart-home card, by the lead over the nearest request of another outcome
 *   (`0.5 + 0.2 × lead / 0.03`, from a similarity of 0.5); a domain no hosted agent serves
 *   ("pay the gas bill") takes the request from the cards, and when that is clear it is out of
 *   scope: asked about, even in a conversation;
 * - the card words: when they and the meaning point to the same agent their confidences add up
 *   (`1 − (1 − a)(1 − b)`); a single card word that the meaning contradicts counts less.
 * In a conversation, a short request ("louder", "and tomorrow?") or one that refers back stays
 * with the conversation's agent unless it does not stand out for that agent at all and its
 * domain's agent is clearly another ("I'm cold" after the news).
 */
export class SemanticStage {
  private readonly evidence: Evidence;

  constructor(
    encoder: SentenceEncoder,
    private readonly threshold: number,
  ) {
    this.evidence = new Evidence(encoder, threshold);
  }

  /**
   * Whether the card words already decided - confidently, each clause placed, on more than one
   * card word or on one that is all the request says (or names the agent): then the model is not
   * consulted, and a direct command costs no embedding.
   */
  decided(request: RoutingRequest, routing: Routing): boolean {
    return (
      routing.agentId !== '' &&
      routing.confidence >= this.threshold &&
      !routing.unplaced &&
      // What seems to refer back may not ("*it*'s freezing in here" is not about the music playing).
      !routing.refersBack &&
      !oneWordAmongOthers(routing) &&
      // Nor a clause of a split request placed so ("turn the fan on and lower the *temperature*").
      !routing.tentative &&
      // A clause of one word ("play jazz and *blues*") is a fragment as often as an intent.
      !(routing.parts && Object.values(routing.parts).some((part) => isFragment(part))) &&
      // A request of several clauses the words did not split may hide an intent they missed.
      !(request.multiAgent && !routing.parts && clauses(request.text).length >= 2)
    );
  }

  /** Embeds the cards of `agents` not embedded yet, and what they are measured against (Evidence.prepare). */
  prepare(agents: readonly AgentProfile[], key?: unknown): Promise<void> {
    return this.evidence.prepare(agents, key);
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
    // In a conversation, a short request ("louder", "and tomorrow?") or one that refers back stays
    // with the conversation's agent unless its meaning clearly belongs elsewhere.
    const previous = request.previousAgentId;
    const short =
      previous !== undefined &&
      lexical.confidence < this.threshold &&
      terms(request.text).length <= FOLLOW_UP_WORDS &&
      request.text.split(/\s+/).length <= FOLLOW_UP_WORDS;
    await this.prepare(agents, key);
    const parts = request.multiAgent && !short && !lexical.refersBack ? clauses(request.text) : [];
    const split = parts.length >= 2;
    const judged = await this.evidence.judge(split ? [...parts, request.text] : [request.text], router, agents);
    const judgement = judged[judged.length - 1];
    if (short || lexical.refersBack) {
      // Only what does not stand out for the conversation's agent at all leaves it ("I'm cold"
      // after the news), not what it can take up ("what about tomorrow" after the weather) - unless
      // another card stands out for it far more and serves the everyday domain it is, as near as
      // one asking the same ("how low's it supposed to get outside tonight" after the thermostat,
      // whose card it stands out for at 1.51 σ, is the weather's: 3.66 σ, "how cold is it outside
      // right now"). Nor is such a request, which leans on the conversation, taken as out of scope.
      // The model was consulted either way: the decision says what the meaning was.
      const stays: Routing = { ...lexical, reasoning: `${lexical.reasoning} (${judgement.meaning})`, semantic: true };
      const outgrown = previous !== undefined && clearlyOfAnother(judgement, previous);
      // Nor what belongs to the everyday domain the conversation's agent serves: the domain says what
      // kind of request it is, the conversation which of the cards ("now make *them* blue" after the
      // hallway lights: the lighting's, though "blue" is a shop's card word and stands out for it).
      if ((standsOutFor(judgement, previous) && !outgrown) || judgement.domainAgent === previous) return stays;
      // Nor what only adjusts what is going on ("louder" after the TV, though music's requests are
      // nearest), nor what names only whose the thing is ("what about Sofia's" after Jaylen's grade).
      if (lexical.adjusts || leavesOutItsThing(request.text)) return stays;
      // What has outgrown the conversation goes to the agent whose domain it is, sure as that agent's
      // card alone may not be ("how warm is it in the living room" after the lights, whose card names
      // the room: the heating's, 4.24 σ against 1.02).
      if (outgrown && judgement.agentId === judgement.domainAgent) return chosen(judgement);
      const elsewhere =
        judgement.agentId !== undefined &&
        judgement.agentId !== previous &&
        judgement.confidence >= CLEARLY_ELSEWHERE &&
        ((judgement.agentId === judgement.domainAgent && judgement.domainSimilarity >= FOLLOW_UP_DOMAIN_MIN) ||
          (judgement.standing.get(judgement.agentId) ?? 0) >= CLEARLY_ON_CARD);
      return elsewhere ? chosen(judgement) : stays;
    }
    if (split) {
      const routing = this.routeClauses(parts, judged.slice(0, -1), judgement);
      if (routing) return routing;
    }
    // Undecided: the words' answer, no more confident than both kinds of evidence together.
    // In a conversation, a request of its own - long, pointing at no one and nothing, and nothing
    // the conversation's agent stands out for - is asked about rather than left to that agent.
    const alone = previous !== undefined && !standsOutFor(judgement, previous) && standsAlone(request.text);
    const undecided = (): Routing => ({
      ...lexical,
      reasoning: judgement.reasoning,
      confidence: round(Math.min(lexical.confidence, judgement.confidence)),
      candidates: merge(lexical.candidates, judgement.candidates),
      semantic: true,
      standsAlone: alone || undefined,
    });
    // What stands out for the conversation's agent is not out of scope ("how long in the oven" after a recipe).
    if (judgement.outOfScope && !standsOutFor(judgement, previous)) return outOfScope(judgement);
    if (!judgement.agentId) return undecided();
    if (previous && judgement.agentId !== previous && judgement.confidence < this.threshold) return undecided();
    return chosen(judgement);
  }

  /**
   * Each clause by its own words and meaning; undefined unless the clauses go to two agents or
   * some stay unplaced beside one. A clause no agent is clear for that only gives context ("I'm
   * heading up to bed, make it dark downstairs"; "the kids have practice on Thursday, pop that
   * in") is not asked about: it goes with the request beside it - as part of the whole request,
   * when that is all there is - and so does one that points at another and is placed by its
   * meaning alone ("next track, I'm sick of this one").
   */
  private routeClauses(parts: string[], judged: Judgement[], whole: Judgement): Routing | undefined {
    const chosen = new Map<string, { text: string[]; confidence: number }>();
    const unplaced: { text: string; candidates: string[] }[] = [];
    /** Each clause left unplaced (context clauses aside), with what the meaning says of it. */
    const loose: { part: string; judgement: Judgement }[] = [];
    /** Context clauses waiting for the next placed clause (none placed before them). */
    let context: { text: string; candidates: string[] }[] = [];
    let last: string | undefined;
    /** Whether the clause before this one was left unplaced. */
    let afterUnplaced = false;
    judged.forEach((judgement, i) => {
      const part = parts[i];
      // A fragment of one word ("play jazz and *blues*") belongs to the clause before it, unless
      // its word says where it goes (what a single word means, its domain or the card it is
      // nearest, says little) - to the clause before it even when that was left unplaced ("order
      // us fish and *chips*": not the shop's by the meaning of "chips").
      const joins = isFragment(part) && (!judgement.agentId || judgement.agentId !== judgement.wordsAgent);
      if (joins && afterUnplaced) return void (unplaced[unplaced.length - 1].text += ` and ${part}`);
      afterUnplaced = false;
      let agentId = joins && last ? last : judgement.agentId;
      // A clause no agent is clear for that only gives context goes with the request beside it.
      // (Its meaning cannot tell "I'm heading up to bed" from "we're out of milk": everyday
      // requests near either are as near. The agent gets the whole text, context included.)
      // So does one that points at another and is placed by its meaning alone ("next track, I'm
      // sick of *this one*"): what it is about is in the clause beside it.
      const pointing = agentId !== undefined && agentId !== judgement.wordsAgent && pointsAt(part);
      // Not one that opens with an action of its own ("…and *text* my wife that I'll be late").
      if ((!agentId || pointing) && isContext(part) && requestedAction(part) === undefined) {
        if (!last) return void context.push({ text: part, candidates: judgement.candidates });
        agentId = last;
      }
      if (!agentId) {
        if (isFragment(part)) return;
        unplaced.push({ text: part, candidates: judgement.candidates });
        loose.push({ part, judgement });
        afterUnplaced = true;
        return;
      }
      const entry = chosen.get(agentId) ?? { text: [], confidence: 1 };
      entry.text.push(...context.map((c) => c.text), part);
      context = [];
      if (judgement.agentId) entry.confidence = Math.min(entry.confidence, judgement.confidence);
      chosen.set(agentId, entry);
      last = agentId;
    });
    unplaced.push(...context);
    if (!context.length && partOfOneRequest(chosen, loose, whole)) return undefined;
    return splitRouting(chosen, unplaced, true);
  }
}

/**
 * Whether clauses left unplaced (`loose`) beside clauses of one agent are parts of one request for
 * it rather than requests of their own - the whole request goes to that agent by words and meaning,
 * and each of them either stands out most for it (standsOutMostFor) and is not out of scope ("*ad
 * eggs* and bred to the shoping list": "and" joins the things added, not two requests), or only
 * names a thing no card has a word of (namesAThingOnly: "we're out of milk and *Ouma's rusks*, get
 * some delivered"; what the model makes of a name or a brand alone, its domain included, says
 * little), or asks what follows from it for the asker (followsFrom). Then the whole request is
 * routed as one.
 */
function partOfOneRequest(
  chosen: ReadonlyMap<string, unknown>,
  loose: readonly { part: string; judgement: Judgement }[],
  whole: Judgement,
): boolean {
  const [agentId] = [...chosen.keys()];
  return (
    chosen.size === 1 &&
    loose.length > 0 &&
    whole.agentId === agentId &&
    loose.every(
      ({ part, judgement }) =>
        (!judgement.wordsAgent && namesAThingOnly(part)) ||
        (!judgement.outOfScope && standsOutMostFor(judgement, agentId)) ||
        (!judgement.wordsAgent && asksWhatFollows(part) && followsFrom(judgement, agentId)),
    )
  );
}

/**
 * Whether a question of what follows for the asker (asksWhatFollows) is about the request beside
 * it: the card it stands out for most is that request's agent's - by any margin, or, when the
 * meaning puts it in a domain no agent serves, by as much as meaning must count (MIN_STANDING).
 * "how much fuel is left in the car, *should I stop at the petrol station*": the car's card, 1.89
 * sigma, though "get me a taxi to the station" (no agent's) is nearest; not "turn off the pool
 * heater, *do I need an umbrella*": the pool's card, 0.89 sigma, the weather no agent's.
 */
function followsFrom(judgement: Judgement, agentId: string): boolean {
  return standsOutMostFor(judgement, agentId, judgement.outOfScope ? MIN_STANDING : 0);
}

/** Whether the text stands out for the agent's card (by `least`, sigma), and for no card more. */
function standsOutMostFor(judgement: Judgement, agentId: string, least = MIN_STANDING): boolean {
  const standing = judgement.standing.get(agentId) ?? -Infinity;
  return standing >= least && [...judgement.standing.values()].every((other) => other <= standing);
}

/**
 * Whether the text is of an everyday domain another agent than the conversation's (`previous`)
 * serves, as near as one asking the same (FOLLOW_UP_DOMAIN_MIN), and stands out most for that
 * agent's card - by OUTGROWN_BY more than for the conversation agent's.
 */
function clearlyOfAnother(judgement: Judgement, previous: string): boolean {
  const other = judgement.domainAgent;
  if (other === undefined || other === previous || judgement.domainSimilarity < FOLLOW_UP_DOMAIN_MIN) return false;
  const margin = (judgement.standing.get(other) ?? 0) - (judgement.standing.get(previous) ?? 0);
  return standsOutMostFor(judgement, other) && margin >= OUTGROWN_BY;
}

/** Whether the text stands out for the conversation's agent: something it can take up. */
function standsOutFor(judgement: Judgement, agentId: string | undefined): boolean {
  return agentId !== undefined && (judgement.standing.get(agentId) ?? 0) >= MIN_STANDING;
}

/** The judgement's agent, chosen. */
function chosen(judgement: Judgement): Routing {
  return {
    agentId: judgement.agentId!,
    reasoning: judgement.reasoning,
    confidence: round(judgement.confidence),
    candidates: judgement.candidates,
    semantic: true,
  };
}

/** No agent: the request belongs to a domain no hosted agent serves (the candidates are still named). */
function outOfScope(judgement: Judgement): Routing {
  return {
    agentId: '',
    reasoning: `${judgement.reasoning}: no hosted agent does that`,
    confidence: 0,
    candidates: [],
    outOfScope: judgement.outOfScope,
    semantic: true,
  };
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
