import { ERRANDS_AND_TALK_DOMAINS } from './everyday/errands-and-talk';
import { HOME_DOMAINS } from './everyday/home';
import { MEDIA_AND_PLANS_DOMAINS } from './everyday/media-and-plans';

/**
 * What people ask a voice assistant, by domain: for each, how an agent serving it would describe
 * itself, and requests as people put them - plainly, indirectly ("I'm freezing" is the heating),
 * tersely. The router learns nothing from these about any particular agent: it finds which hosted
 * card, if any, serves each domain (DomainMap) and lets a request that says nothing a card says
 * borrow the card of the domain it belongs to - or, when no hosted agent serves that domain, be
 * recognised as something the hub cannot do rather than handed to the nearest card.
 */
export interface EverydayDomain {
  id: string;
  /** The domain as an agent card would put it. */
  description: string;
  requests: readonly string[];
  /**
   * More ways people say such requests - idioms, indirect wishes, everyday shorthand ("it's like an
   * oven in here", "get the air con going") - read only to tell which domain a request is in
   * (DomainMap.classify). Not `requests`: those are the sample a card's standing is calibrated
   * against (CARD_BACKGROUND) and that votes for the card serving the domain (DomainMap.assign),
   * which stay as they were fixed.
   */
  alsoSaid?: readonly string[];
  /**
   * How people open a request of this domain whatever the rest is about (framedDomain): "remind
   * me to *call the landlord*" asks for a reminder, not a call.
   */
  framing?: RegExp;
  /**
   * `false` for a domain added after CARD_BACKGROUND was fixed: its requests are not part of the
   * background every card is calibrated against.
   */
  background?: false;
}

export const EVERYDAY_DOMAINS: readonly EverydayDomain[] = [
  ...HOME_DOMAINS,
  ...MEDIA_AND_PLANS_DOMAINS,
  ...ERRANDS_AND_TALK_DOMAINS,
];

/**
 * The domain a request is framed as (EverydayDomain.framing), if any. The sentence-embedding model
 * reads what a request is about more than how it is put: "remind me to call the landlord tomorrow
 * at 10" is nearer "make sure the house is locked" (0.63) than any reminder (0.60), "remind me to
 * ring the vet at 4" nearest "let the dog walker in" - the framing says what is asked.
 */
export function framedDomain(text: string): string | undefined {
  return EVERYDAY_DOMAINS.find((d) => d.framing?.test(text.trim()))?.id;
}

/**
 * Every domain's requests and what else people say for them (`alsoSaid`), with the domain's index
 * in EVERYDAY_DOMAINS: what a request is compared with.
 */
export const EVERYDAY_SAYINGS: readonly { domain: number; text: string; alsoSaid: boolean }[] =
  EVERYDAY_DOMAINS.flatMap((d, domain) => [
    ...d.requests.map((text) => ({ domain, text, alsoSaid: false })),
    ...(d.alsoSaid ?? []).map((text) => ({ domain, text, alsoSaid: true })),
  ]);

/**
 * The background against which a card's similarity to a request is judged (CardVectors: its mean
 * and spread over these): the requests of the domains the router was tuned with, every domain
 * before the car. It is a calibration, not a list of what the hub knows, so adding a domain leaves
 * it as it is - otherwise every card's standing moves with each new domain (twelve car requests
 * raised a car card's mean enough to drop its other claims under DomainMap's MIN_REQUEST_STANDING:
 * Polestar's climate, 0.82 -> 0.64 sigma).
 */
export const CARD_BACKGROUND: readonly string[] = EVERYDAY_DOMAINS.filter((d) => d.background !== false).flatMap(
  (d) => d.requests,
);
