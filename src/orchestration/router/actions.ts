import { clauses } from './clauses';
import { isQuantity, saysWhat, stem, terms, words } from './text-analysis';
import type { Routing, RoutingRequest } from './routing';

/**
 * Things an agent does only if its card says so: buying, booking, betting, calling, messaging.
 * A request to do one of them ("*book* a train ticket", "*call* the plumber", "*buy* tickets for
 * the match") is not for an agent whose card offers nothing of the kind, however close the
 * request's topic is to it (trains, sports): routed on its topic, it would reach an agent that
 * can only say it cannot - or worse, do something else.
 */
export type Action = 'buying' | 'booking' | 'betting' | 'calling' | 'messaging';

/** The verbs that ask for each action, as a request opens with them. */
const VERBS: Record<Action, readonly string[]> = {
  buying: ['buy', 'purchase', 'order', 'pay', 'refund', 'rent', 'hire', 'subscribe'],
  booking: ['book', 'reserve'],
  betting: ['bet', 'wager', 'gamble'],
  calling: ['call', 'phone', 'ring', 'dial', 'facetime'],
  messaging: ['text', 'email', 'message', 'whatsapp', 'sms'],
};

/**
 * The words by which a card offers each action (any one will do). Not "shop" or "store": a
 * shopping *list* keeps groceries, it does not buy them.
 */
const OFFERS: Record<Action, readonly string[]> = {
  // "Request a ride": a card that takes requests for a thing gets it for you.
  buying: [...VERBS.buying, 'payment', 'checkout', 'cart', 'basket', 'sell', 'price', 'subscription', 'request'],
  booking: [...VERBS.booking, 'booking', 'reservation', 'ticket', 'request'],
  betting: [...VERBS.betting, 'betting', 'odds', 'bookmaker'],
  calling: [...VERBS.calling, 'contact', 'telephone', 'voip'],
  messaging: [...VERBS.messaging, 'mail', 'messaging', 'inbox', 'chat'],
};

/** What `send` sends, when it asks for a message ("send a *text* to Jess"). */
const SENT = new Set(['text', 'message', 'email', 'mail', 'whatsapp', 'sms', 'note']);

/** Words before a request's verb that do not change what it asks ("and could you please *book*…"). */
const OPENERS = new Set(
  (
    'and also then so now please pls hey hi ok okay oh um uh er just quickly can could would will you u i we ' +
    'want need like love to go ahead let lets us'
  ).split(' '),
);
const DETERMINERS = new Set(['a', 'an', 'the', 'my', 'our', 'some', 'them', 'him', 'her', 'me', 'us']);

const BY_VERB = new Map<string, Action>(
  (Object.entries(VERBS) as [Action, readonly string[]][]).flatMap(([action, verbs]) =>
    verbs.map((verb) => [verb, action] as const),
  ),
);

/** The action a request opens with, if it is one of those a card must offer. */
export function requestedAction(text: string): Action | undefined {
  return opening(text)?.action;
}

/** The action a request opens with, and where its verb is among its words. */
function opening(text: string): { action: Action; all: string[]; at: number } | undefined {
  const all = words(text);
  let at = 0;
  while (at < all.length && OPENERS.has(all[at])) at++;
  const verb = all[at];
  if (verb === undefined) return undefined;
  if (verb === 'send') {
    const sent = all.slice(at + 1).find((w) => !DETERMINERS.has(w));
    return sent !== undefined && SENT.has(sent) ? { action: 'messaging', all, at } : undefined;
  }
  if (FETCHING.has(verb)) {
    // "get me two tickets for the match" is a booking whichever verb asks for it; "find *my*
    // ticket" is one already had.
    const got = all.slice(at + 1).find((w) => !DETERMINERS.has(w) && !isQuantity(w));
    const had = all.slice(at + 1, all.indexOf(got ?? '', at + 1)).some((w) => POSSESSIVES.has(w));
    return got !== undefined && stem(got) === 'ticket' && !had ? { action: 'booking', all, at } : undefined;
  }
  // Subscribing to a podcast or a newsletter follows it; to a service it pays for one.
  if (verb === 'subscribe' && all.slice(at + 1).some((w) => FOLLOWED.has(w))) return undefined;
  const action = BY_VERB.get(verb);
  return action && { action, all, at };
}

/** What one subscribes to by following it, for nothing: "*subscribe* to the Serial podcast". */
const FOLLOWED = new Set(['podcast', 'podcasts', 'newsletter', 'newsletters', 'feed', 'feeds']);

/** Verbs that ask for something without saying how it is had: "*get* me tickets", "*grab* two tickets". */
const FETCHING = new Set(['get', 'grab', 'find', 'score', 'snag', 'fetch']);
const POSSESSIVES = new Set(['my', 'our', 'your', 'his', 'her', 'their']);

/** Words that end what an action is for and start where, when, for whom or how ("order a pizza *from* Luigi's"). */
const OBJECT_ENDS = new Set(
  'for from to in into on at with by via while so because before after about until when if then'.split(' '),
);
/**
 * Words for something bought or booked that say nothing of what it is ("pay for my *stuff*", "buy
 * a *present*"), or only how much of a place ("book a *table* at Nando's", "reserve two *seats*"):
 * a card for restaurants or a theatre need not write them.
 */
const PLACEHOLDERS = new Set(
  (
    'stuff thing things something anything everything item items present presents gift gifts one ones lot ' +
    'table tables seat seats room rooms place places spot spots slot slots'
  ).split(' '),
);

/** Actions whose object is a thing a card that offers them lists (not a person to call or a team to bet on). */
const FOR_THINGS: ReadonlySet<Action> = new Set(['buying', 'booking']);

/**
 * What a buying or booking is for, in the words that say it: those after the verb up to where,
 * when or for whom ("order *a pizza* from Luigi's", "refund *my train ticket*"), if any says what.
 */
export function actionObject(text: string): string | undefined {
  const found = opening(text);
  if (!found || !FOR_THINGS.has(found.action)) return undefined;
  return objectFrom(found.all, found.at + 1);
}

/** The words from `start` that say what a thing is, up to where, when or for whom. */
function objectFrom(all: string[], start: number): string | undefined {
  const object: string[] = [];
  for (const word of all.slice(start)) {
    if (OBJECT_ENDS.has(word)) break;
    // Pronouns and other stopwords ("buy *it*") say nothing of what either.
    const [term] = terms(word);
    if (term !== undefined && !PLACEHOLDERS.has(word) && saysWhat(word) && !isQuantity(term)) {
      object.push(word);
    }
  }
  return object.length ? object.join(' ') : undefined;
}

/** Words before a thing that say it is wanted: "I *need* a new lamp", "I'd *like* another mug". */
const WANTING = new Set(['want', 'need', 'like', 'love']);
/** Words that make a thing wanted one to be had, not one already had: "a *new* lamp", "*another* charger". */
const FRESH = new Set(['new', 'another', 'spare', 'replacement']);
const ARTICLES = new Set(['a', 'an', 'some', 'me', 'us']);

/**
 * The thing a request wants a new one of, though no verb asks to buy it ("I need a new desk
 * lamp", "I'd like another coffee cup", "get me a new phone charger"): a buying, if a card
 * offers to sell that thing. Not a thing had ("fix *my* new lamp"), nor one wanted without
 * "new" or "another" ("I want a coffee" is made, not bought).
 */
export function wantedNewThing(text: string): string | undefined {
  const all = words(text);
  let at = 0;
  let wanting = false;
  for (; at < all.length && OPENERS.has(all[at]); at++) wanting ||= WANTING.has(all[at]);
  if (FETCHING.has(all[at])) {
    wanting = true;
    at++;
  }
  if (!wanting) return undefined;
  while (ARTICLES.has(all[at])) at++;
  return FRESH.has(all[at]) ? objectFrom(all, at + 1) : undefined;
}

/** The card terms (stemmed, as the router indexes them) by which an agent offers each action. */
const OFFERING_TERMS = new Map<Action, ReadonlySet<string>>(
  (Object.entries(OFFERS) as [Action, readonly string[]][]).map(([action, list]) => [
    action,
    new Set(list.map((word) => stem(word))),
  ]),
);

/** What the action check needs of the router's index (DefaultRouter). */
export interface CardIndex {
  readonly agentIds: readonly string[];
  cardHasAny(agentId: string, terms: ReadonlySet<string>): boolean;
  cardHasWordOf(agentId: string, text: string): boolean;
  names(agentId: string, text: string): boolean;
  /** Whether a phrase is all words of an agent's name ("order me an *Uber*"). */
  isCalled(agentId: string, phrase: string): boolean;
}

/**
 * The action `text` asks for that `agentId`'s card does not offer - or offers, but not for what
 * the text says it is for ("refund my *train ticket*" to a shop of mugs, "order a *pizza*" to it):
 * a card that sells some things does not sell all - unless the text names the agent.
 */
export function unofferedAction(index: CardIndex, agentId: string, text: string): Action | undefined {
  const action = requestedAction(text);
  if (action === undefined || index.names(agentId, text)) return undefined;
  return offers(index, agentId, action, actionObject(text)) ? undefined : action;
}

/**
 * Whether an agent's card offers an action - for `object`, when the request says what it is for.
 * What is bought or booked may be the agent itself, by its name ("order me an *Uber*", "book a
 * *Lyft*"): an agent called after what it provides offers it, whatever its card's verbs.
 */
function offers(index: CardIndex, agentId: string, action: Action, object: string | undefined): boolean {
  if (object !== undefined && index.isCalled(agentId, object)) return true;
  return (
    index.cardHasAny(agentId, OFFERING_TERMS.get(action)!) &&
    (object === undefined || index.cardHasWordOf(agentId, object))
  );
}

/** The agents whose cards offer an action (for `object`, if given), in host order. */
export function offering(index: CardIndex, action: Action, object?: string): string[] {
  return index.agentIds.filter((id) => offers(index, id, action, object));
}

/** Agents named in a clarifying question. */
const MAX_CANDIDATES = 3;

/**
 * The routing with every agent asked for an action its card does not offer taken off it (see
 * Action). A request that was all such is asked about instead - even in a conversation, whose
 * agent would otherwise take what is undecided (`outOfScope`) - naming the agents that offer
 * the action for what it is for, if any; a part of a split request joins the parts asked about.
 */
export function withOfferedActions(
  index: CardIndex,
  request: RoutingRequest,
  routing: Routing,
  threshold: number,
): Routing {
  const undecided = !routing.parts && (routing.agentId === '' || routing.confidence < threshold);
  if (undecided) {
    const sole = soleOffer(index, request.text, threshold);
    if (sole) return { ...sole, reasoning: `${routing.reasoning}; but ${sole.reasoning}`, semantic: routing.semantic };
  }
  if (routing.outOfScope) return routing;
  if (routing.parts) return withOfferedParts(index, routing, routing.parts);
  // The agent that will answer: the one chosen, or else the conversation's.
  const decided = routing.agentId !== '' && routing.confidence >= threshold;
  const agentId = decided ? routing.agentId : (request.previousAgentId ?? '');
  const action = agentId ? unofferedAction(index, agentId, request.text) : undefined;
  if (!action) return routing;
  const object = actionObject(request.text);
  return {
    agentId: '',
    reasoning: `${routing.reasoning}; but the request asks for ${asked(action, object)}, which ${agentId}'s card does not offer`,
    confidence: 0,
    candidates: offering(index, action, object).slice(0, MAX_CANDIDATES),
    outOfScope: action,
    semantic: routing.semantic,
  };
}

/**
 * A buying or booking of a thing only one card offers it for - the card has the thing's word
 * ("buy a *kettle*", "I need a new kettle" to a shop whose card lists kettles) - goes to that
 * card, whatever the words and the meaning left undecided: the meaning may place the thing
 * elsewhere ("boil the kettle", an everyday request no agent serves), but the request is the
 * offer's.
 */
function soleOffer(index: CardIndex, text: string, threshold: number): Routing | undefined {
  const requested = requestedAction(text);
  const wanted = requested === undefined ? wantedNewThing(text) : undefined;
  const action = wanted ? 'buying' : requested;
  const object = wanted ?? actionObject(text);
  if (action === undefined || object === undefined || !FOR_THINGS.has(action)) return undefined;
  const offered = offering(index, action, object);
  if (offered.length !== 1) return undefined;
  return {
    agentId: offered[0],
    reasoning: `the request asks for ${asked(action, object)}, which only ${offered[0]}'s card offers for it`,
    confidence: Math.max(SOLE_OFFER_CONFIDENCE, threshold),
    candidates: offered,
  };
}

/** A sole offer decides, as clear card words do (at least at the configured threshold). */
const SOLE_OFFER_CONFIDENCE = 0.85;

/** The action and what it is for, as the reasoning says it: "buying (pizza)". */
function asked(action: Action, object: string | undefined): string {
  return object ? `${action} (${object})` : action;
}

/**
 * A split request's parts with each clause asking for an action its agent's card does not offer
 * taken off that agent: to the one card that offers it for what it is for, if only one does (as
 * soleOffer, for a part: "*book me a ride to the gym* and play my workout mix"), else asked about.
 * Clause by clause: one agent's part may hold several ("put the battery on savings and *text my
 * husband I'm home*").
 */
function withOfferedParts(index: CardIndex, routing: Routing, parts: Record<string, string>): Routing {
  const pieces = Object.entries(parts).flatMap(([agentId, part]) => clauses(part).map((text) => ({ agentId, text })));
  const unoffered = new Set(pieces.filter((p) => unofferedAction(index, p.agentId, p.text)));
  if (!unoffered.size) return routing;
  const kept: [string, string][] = [];
  for (const piece of pieces) {
    if (unoffered.has(piece)) continue;
    const { agentId, text } = piece;
    const at = kept.findIndex(([id]) => id === agentId);
    if (at >= 0) kept[at] = [agentId, `${kept[at][1]} and ${text}`];
    else kept.push([agentId, text]);
  }
  const refused: { agentId: string; text: string; action: Action; object?: string }[] = [];
  const moved: string[] = [];
  for (const { agentId, text: part } of unoffered) {
    const action = requestedAction(part)!;
    const object = actionObject(part);
    const offered = FOR_THINGS.has(action) && object !== undefined ? offering(index, action, object) : [];
    if (offered.length !== 1) {
      refused.push({ agentId, text: part, action, object });
      continue;
    }
    const at = kept.findIndex(([id]) => id === offered[0]);
    if (at >= 0) kept[at] = [offered[0], `${kept[at][1]} and ${part}`];
    else kept.push([offered[0], part]);
    moved.push(`"${part}" asks for ${asked(action, object)}, which only ${offered[0]}'s card offers for it`);
  }
  const unplaced = [
    ...refused.map((r) => ({ text: r.text, candidates: offering(index, r.action, r.object).slice(0, MAX_CANDIDATES) })),
    ...(routing.unplaced ?? []),
  ];
  const reasons = [
    ...refused.map(
      (r) => `"${r.text}" asks for ${asked(r.action, r.object)}, which ${r.agentId}'s card does not offer`,
    ),
    ...moved,
  ];
  const ids = kept.map(([id]) => id);
  return {
    ...routing,
    agentId: ids[0] ?? '',
    additionalAgents: ids.length > 1 ? ids.slice(1) : undefined,
    reasoning: `${routing.reasoning}; but ${reasons.join('; ')}`,
    confidence: ids.length ? routing.confidence : 0,
    candidates: ids.length ? ids : unplaced[0].candidates,
    parts: Object.fromEntries(kept),
    unplaced: unplaced.length ? unplaced : undefined,
    outOfScope: ids.length ? undefined : refused[0].action,
  };
}
