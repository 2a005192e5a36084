import { stem, words } from './text-analysis';
import type { Routing, RoutingRequest } from './default-router';

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
  buying: [...VERBS.buying, 'payment', 'checkout', 'cart', 'basket', 'sell', 'price', 'subscription'],
  booking: [...VERBS.booking, 'booking', 'reservation', 'ticket'],
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
  const all = words(text);
  let at = 0;
  while (at < all.length && OPENERS.has(all[at])) at++;
  const verb = all[at];
  if (verb === undefined) return undefined;
  if (verb === 'send') {
    const sent = all.slice(at + 1).find((w) => !DETERMINERS.has(w));
    return sent !== undefined && SENT.has(sent) ? 'messaging' : undefined;
  }
  return BY_VERB.get(verb);
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
  names(agentId: string, text: string): boolean;
}

/** The action `text` asks for that `agentId`'s card does not offer (unless the text names the agent). */
export function unofferedAction(index: CardIndex, agentId: string, text: string): Action | undefined {
  const action = requestedAction(text);
  if (action === undefined || index.cardHasAny(agentId, OFFERING_TERMS.get(action)!) || index.names(agentId, text)) {
    return undefined;
  }
  return action;
}

/** The agents whose cards offer an action, in host order. */
export function offering(index: CardIndex, action: Action): string[] {
  return index.agentIds.filter((id) => index.cardHasAny(id, OFFERING_TERMS.get(action)!));
}

/** Agents named in a clarifying question. */
const MAX_CANDIDATES = 3;

/**
 * The routing with every agent asked for an action its card does not offer taken off it (see
 * Action). A request that was all such is asked about instead - even in a conversation, whose
 * agent would otherwise take what is undecided (`outOfScope`) - naming the agents that offer
 * the action, if any; a part of a split request joins the parts asked about.
 */
export function withOfferedActions(
  index: CardIndex,
  request: RoutingRequest,
  routing: Routing,
  threshold: number,
): Routing {
  if (routing.outOfScope) return routing;
  if (routing.parts) return withOfferedParts(index, routing, routing.parts);
  // The agent that will answer: the one chosen, or else the conversation's.
  const decided = routing.agentId !== '' && routing.confidence >= threshold;
  const agentId = decided ? routing.agentId : (request.previousAgentId ?? '');
  const action = agentId ? unofferedAction(index, agentId, request.text) : undefined;
  if (!action) return routing;
  return {
    agentId: '',
    reasoning: `${routing.reasoning}; but the request asks for ${action}, which ${agentId}'s card does not offer`,
    confidence: 0,
    candidates: offering(index, action).slice(0, MAX_CANDIDATES),
    outOfScope: action,
    semantic: routing.semantic,
  };
}

function withOfferedParts(index: CardIndex, routing: Routing, parts: Record<string, string>): Routing {
  const kept = Object.entries(parts).filter(([agentId, part]) => !unofferedAction(index, agentId, part));
  if (kept.length === Object.keys(parts).length) return routing;
  const refused = Object.entries(parts)
    .filter(([agentId]) => !kept.some(([id]) => id === agentId))
    .map(([agentId, part]) => ({ agentId, text: part, action: requestedAction(part)! }));
  const unplaced = [
    ...refused.map((r) => ({ text: r.text, candidates: offering(index, r.action).slice(0, MAX_CANDIDATES) })),
    ...(routing.unplaced ?? []),
  ];
  const reasons = refused.map((r) => `"${r.text}" asks for ${r.action}, which ${r.agentId}'s card does not offer`);
  const ids = kept.map(([id]) => id);
  return {
    ...routing,
    agentId: ids[0] ?? '',
    additionalAgents: ids.length > 1 ? ids.slice(1) : undefined,
    reasoning: `${routing.reasoning}; but ${reasons.join('; ')}`,
    confidence: ids.length ? routing.confidence : 0,
    candidates: ids.length ? ids : unplaced[0].candidates,
    parts: Object.fromEntries(kept),
    unplaced,
    outOfScope: ids.length ? undefined : refused[0].action,
  };
}
