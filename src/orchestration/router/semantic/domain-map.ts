import { namedDomains } from './domain-words';
import { EVERYDAY_DOMAINS, EVERYDAY_SAYINGS } from './everyday-domains';
import { cosine, SentenceEncoder } from './sentence-encoder';

/** How close (cosine) a domain's description must come to a line of a card for that line to claim it. */
const MIN_SERVING = 0.55;
/**
 * How far below the domain nearest a card (or a line) another domain may be and still be claimed
 * by it: a card serves what it is about, not every domain it brushes against (a shop of mugs and
 * hoodies is near groceries, but nearer shopping).
 */
const SERVING_BAND = 0.1;
/**
 * A claim holds only if the domain's requests, as people put them, stand out for the card on
 * average by this much (standard deviations, CardVectors.standing): two lines can be near in
 * their words and far in what they are for ("show live camera feeds" is near "the television:
 * channels, shows and films", but "put the football on" is nowhere near a camera card; "send
 * money to your contacts" is near "calls, messages and email", but "ring my mum" is not near a
 * bank). On the card sets audited (bench/routing/domain-audit.md) the domains a card serves
 * stand out at 0.8 to 3 σ, the claims by wording alone at -0.1 to 0.7 σ.
 */
const MIN_REQUEST_STANDING = 0.75;
/**
 * A card claims the domains near its closest (within SERVING_BAND); and each of its lines - its
 * description, each skill, its tags, its examples - claims those near that line's closest, so a
 * card of several skills serves the domain of each ("Podcasts: play and resume podcast episodes"
 * beside a music player's lines, 0.14 below its closest). Such a claim of one line, outside what
 * the card as a whole is most about, needs the requests to stand out more: "switches" in a smart
 * home's summary line is near the appliances (the washing machine, the oven), whose requests stand
 * out for the card at 0.8 σ; the podcasts' for a card with a podcast skill at 1.5 σ.
 */
const MIN_REQUEST_STANDING_OF_A_LINE = 1;
/**
 * A request of a domain votes for the card it stands out most for, by at least this much (standard
 * deviations, CardVectors.standing): how many do so backs a claim a little further off (VOTED_BY).
 * Votes alone give no domain: a card of many skills is near each of its domains by a line of it
 * (each line claims), and on the card sets audited the only domains votes alone still gave were
 * wrong: the floor cleaning to a pet feeder (4 of 7 requests, its lines 0.41 or further from the
 * domain's), the blinds and curtains to a light card (4 of 8).
 */
const VOTE_STANDING = 1.5;
/**
 * A card the model cannot place - none of its lines claims any domain ("Met.no: Forecast for
 * home.", "Frigate: NVR events and camera snapshots.", brand names and a few words), or its claims
 * lose every domain to nearer cards - is placed by its words: a word or a compound of one domain's
 * description and no other's ("forecast", "camera", "shopping list": domain-words.ts) names
 * that domain when it is also the domain the card's lines come nearest (a pet feeder's "how much
 * food is left" names the groceries, but its lines are nearest the health's; "charging station"
 * on a robot mower the energy, its lines nearest the appliances; "reminds you to take them" on a
 * medication card the reminders, its lines nearest the health), and the card claims it if the
 * domain's requests stand out for it at all, by this much on average (σ): the model's evidence,
 * weak, must not be contrary ("lunch money" on a school card names the finance domain, whose
 * requests stand out for it at -0.07 σ).
 */
const MIN_REQUEST_STANDING_OF_A_NAME = 0;
/**
 * Cards whose closest lines come within this (cosine) of the nearest card's, and whose claims hold,
 * are as near the domain by their lines: a card the domain's requests stand out for clearly more
 * (by TIE_BROKEN_BY, σ) serves it. A hundredth says nothing of what a card is for
 * ("Climatisation: pre-heat or pre-cool the cabin" on a car's card is 0.62 from the heating, its
 * requests 0.78 σ; "Smart Thermostat and Smart Radiator Valves" 0.61, 1.65 σ); a tenth of a σ
 * says as little (a restaurant-booking card and a takeaway's, 1.37 and 1.45 σ). Five hundredths
 * say as little: "eco-smart EV charger" (0.62, 1.63 σ) is the car charging's, not a car's "state of
 * charge" (0.64, 0.89 σ); Google Calendar (0.64, 1.86 σ) the calendar's, not Todoist (0.68, 1.11 σ).
 * Four tenths of a σ is clear: the blinds and the garage door are a garage opener's ("Open or close
 * the garage door", 0.61, 1.70 σ), not a car's "Lock or unlock the doors… windows are closed" (0.62,
 * 1.31 σ); at 0.45 the car kept them (seventh household; no other assignment on the ten audited
 * sets moved, nor any dev item).
 */
const LINE_TIE = 0.05;
const TIE_BROKEN_BY = 0.35;
/**
 * Further off by its lines, within SERVING_BAND of the nearest, a card whose claim holds still
 * serves the domain when more than half of the domain's requests vote for it (VOTE_STANDING) and
 * they stand out for it by VOTED_BY (σ) more than for the nearest: the requests people say back it
 * overwhelmingly, the nearer line barely. "Your music, your way. 120 million tracks" (Deezer, 0.64;
 * 11 of 16 votes, 2.41 σ) is the music's, not a TV card's "Playback and volume" (0.69; 3 votes,
 * 0.86 σ). No such backing on the audited sets is as clear: a media card's TV beside BBC Sounds
 * (0.13 further, 3 of 6 votes, 0.7 σ more), Google Calendar beside Todoist (5 of 12).
 */
const VOTED_BY = 1;
/**
 * How near (cosine) a request must come to one of the things people also say for a domain
 * (EverydayDomain.alsoSaid) for it to count: nearly what the request says. Short sayings are
 * many, and the model puts some unrelated one within 0.5-0.6 of most requests ("has the
 * woodpecker been back" is 0.55 from "it's nippy in here"); a domain's own requests were chosen
 * and calibrated against such near misses, these were not.
 */
export const ALSO_SAID_MIN = 0.6;

/** What DomainMap needs of the hosted cards (CardVectors). */
export interface CardLines {
  /** The vectors of an agent's card lines: its description, each skill, its tags and examples. */
  lines(agentId: string): readonly Float32Array[];
  /** How far a vector stands out for an agent's card (CardVectors.standing). */
  standing(vector: Float32Array, agentId: string): number;
  /** What an agent's card says it is for, in words (CardVectors.words). */
  words(agentId: string): string;
}

/** Where a request belongs among everyday domains, and which hosted agent, if any, serves that domain. */
export interface DomainVerdict {
  domain: string;
  /** The agent serving the domain; undefined when no hosted agent does. */
  agentId?: string;
  /** The everyday request nearest to the request… */
  nearest: string;
  /** …how close it is (cosine)… */
  similarity: number;
  /** …and by how much it is closer than the nearest everyday request of a domain with another outcome (another agent or none). */
  lead: number;
}

/** Why a domain went to the agent it went to (DomainMap.explain: bench/routing/domain-audit.ts). */
export interface DomainAssignment {
  domain: string;
  agentId?: string;
  /** Which rule gave it: the card's closest line near the domain's, or a word of a card no line of which is placed (MIN_REQUEST_STANDING_OF_A_NAME). */
  by?: 'line' | 'name';
  /** Every card, nearest the domain's line first. */
  cards: {
    agentId: string;
    /** The card's closest line to the domain's (cosine)… */
    similarity: number;
    /** …whether the card or a line of it claims the domain, and the requests bear the claim out… */
    claims: boolean;
    /** …how far the domain's requests stand out for the card on average (σ, MIN_REQUEST_STANDING)… */
    requestStanding: number;
    /** …and how many of the domain's requests stand out most for it (VOTE_STANDING), of `requests`. */
    votes: number;
  }[];
  requests: number;
}

/**
 * The everyday domains (EVERYDAY_DOMAINS) against the hosted cards: which agent serves each - the
 * card with a line nearest the domain's description, if near enough, if that domain is among what
 * the line is most about and if the domain's requests stand out for the card; else a card placed
 * nowhere whose words name it - and, for a request, the domain of the everyday request nearest
 * to it. A request that says nothing any card says ("I'm freezing") finds its agent through
 * its domain (the heating: the smart home); one whose domain no hosted agent serves ("pay the
 * gas bill") is known as such instead of going to whichever card is least far.
 */
export class DomainMap {
  private embedded?: {
    descriptions: Float32Array[];
    /** The domains' requests (not what is also said): what assigns the domains. */
    requests: { domain: number; vector: Float32Array }[];
    /** EVERYDAY_SAYINGS': what a request is compared with. */
    sayings: Float32Array[];
  };
  /** The agent serving each domain (EVERYDAY_DOMAINS' order), for the agent set last assigned. */
  private servedBy: (string | undefined)[] = [];
  private assignments: DomainAssignment[] = [];

  constructor(private readonly encoder: SentenceEncoder) {}

  /**
   * Decides which of `agentIds` serves each domain, from their cards' lines and how far vectors
   * stand out for each card (CardLines: CardVectors). The domains are embedded on first use, in
   * one batch.
   */
  async assign(agentIds: readonly string[], cards: CardLines): Promise<void> {
    const embedded = await this.embed();
    const lines = new Map(agentIds.map((id) => [id, cards.lines(id)]));
    const nearness = embedded.descriptions.map((description) =>
      agentIds.map((id) => Math.max(-1, ...lines.get(id)!.map((line) => cosine(line, description)))),
    );
    // The closest any domain comes to each card, and the domains each card's lines claim.
    const most = agentIds.map((_, a) => Math.max(...nearness.map((row) => row[a])));
    const byLine = agentIds.map((id) => claimed(lines.get(id)!, embedded.descriptions));
    const scored = embedded.descriptions.map((_, domain) => {
      const requests = embedded.requests.filter((r) => r.domain === domain).map((r) => r.vector);
      const votes = this.votes(requests, agentIds, cards);
      const ranked = agentIds
        .map((agentId, a) => {
          const similarity = nearness[domain][a];
          const requestStanding = mean(requests.map((request) => cards.standing(request, agentId)));
          // What the card as a whole is about, or else what one of its lines is about, if the requests bear it out.
          const wholeCard = similarity >= MIN_SERVING && similarity >= most[a] - SERVING_BAND;
          const claims = wholeCard
            ? requestStanding >= MIN_REQUEST_STANDING
            : byLine[a][domain] && requestStanding >= MIN_REQUEST_STANDING_OF_A_LINE;
          return { agentId, similarity, claims, requestStanding, votes: votes.get(agentId) ?? 0 };
        })
        .sort((x, y) => y.similarity - x.similarity);
      return { domain, ranked, requests: requests.length };
    });
    // The card each domain goes to by its lines (nearestClaim); the cards it gives none are placed
    // nowhere, their claims lost to nearer cards' or none held ("Shopping List: the family's shared
    // shopping list" claims the shopping, 0.58, where the shop's card is 0.74).
    const winners = scored.map(({ ranked, requests }) => nearestClaim(ranked, requests));
    const placed = new Set(winners.flatMap((c) => (c ? [c.agentId] : [])));
    // A card whose words name two domains its lines come near (within SERVING_BAND of its closest)
    // names neither: "The money app for kids. Chores, allowance and savings goals" names the
    // finance by "money" and the reminders by "chores", its lines 0.30 and 0.38 from theirs: its
    // words do not say which it is for (its requests stand out 0.67 σ for the reminders, more than
    // Met.no's for the weather, 0.31 σ, so no threshold tells it). Every card served by a word on
    // the ten audited sets names one domain its lines come near (MedMinder's "reminds" is 0.22
    // below its closest, the health).
    const named = new Map(
      agentIds
        .filter((id) => !placed.has(id))
        .map((id) => {
          const a = agentIds.indexOf(id);
          const domains = namedDomains(cards.words(id));
          const near = [...domains].filter((d) => nearness[d][a] >= most[a] - SERVING_BAND);
          return [id, near.length > 1 ? new Set<number>() : domains] as const;
        }),
    );
    this.assignments = scored.map(({ domain, ranked, requests }) => {
      const assignment: DomainAssignment = { domain: EVERYDAY_DOMAINS[domain].id, cards: ranked, requests };
      // The card nearest the domain by its lines, if its claim holds - not a card further away
      // instead: among one-line cards the next is as often a near miss ("Garage door opener" for
      // the cameras and the alarm, when the alarm's card is further). Cards as near, whose claims
      // hold too, are told apart by the requests (LINE_TIE).
      const served = winners[domain];
      // A card placed nowhere whose words name the domain, its closest by its lines - or near it
      // (SERVING_BAND) with the domain's requests standing out for it as a whole card's must
      // (MIN_REQUEST_STANDING): "Pay and get paid in seconds… pay back your friends" is nearer
      // another domain by its wording, but the money's requests stand out for it at 1.5 σ, and a
      // "Video Doorbell"'s at 0.75 σ; a sprinkler's "weather", 0.64 σ, is no forecast - if only one does…
      const closest = (c: { agentId: string }) => most[agentIds.indexOf(c.agentId)];
      const about = (c: { agentId: string; similarity: number }) => c.similarity >= closest(c);
      const nearlyAbout = (c: { agentId: string; similarity: number; requestStanding: number }) =>
        about(c) || (c.similarity >= closest(c) - SERVING_BAND && c.requestStanding >= MIN_REQUEST_STANDING);
      const naming = ranked.filter(
        (c) =>
          named.get(c.agentId)?.has(domain) && nearlyAbout(c) && c.requestStanding >= MIN_REQUEST_STANDING_OF_A_NAME,
      );
      const [name] = naming.length === 1 ? naming : [];
      // …serves it when no card's claim holds; and over a claim that is a side of the claimant
      // (not its closest domain) when its requests stand out for the named card more. "Bose Music:
      // Play music on the Bose speaker in the kitchen." (0.52 from the music's line, its closest;
      // requests 1.13 σ) is the music's card, not a TV's "Play, pause, skip… change the volume"
      // (0.64, but 0.02 below the TV, its closest; 0.76 σ, no vote).
      const own = name && (!served || (!about(served) && name.requestStanding > served.requestStanding));
      if (served && !own) return { ...assignment, agentId: served.agentId, by: 'line' };
      if (name) {
        name.claims = true;
        return { ...assignment, agentId: name.agentId, by: 'name' };
      }
      return assignment;
    });
    this.servedBy = this.assignments.map((a) => a.agentId);
  }

  /** For each card, how many of these requests stand out most for it, by at least VOTE_STANDING. */
  private votes(requests: Float32Array[], agentIds: readonly string[], cards: CardLines): Map<string, number> {
    const votes = new Map<string, number>();
    for (const vector of requests) {
      let top: string | undefined;
      let topStanding = VOTE_STANDING;
      for (const id of agentIds) {
        const value = cards.standing(vector, id);
        if (value >= topStanding) [top, topStanding] = [id, value];
      }
      if (top) votes.set(top, (votes.get(top) ?? 0) + 1);
    }
    return votes;
  }

  /** Why each domain went where it went, for the agent set last assigned (EVERYDAY_DOMAINS' order). */
  explain(): readonly DomainAssignment[] {
    return this.assignments;
  }

  /**
   * For a domain no agent serves, the card whose claim held (DomainAssignment's `claims`) though a
   * card nearer the domain by its lines had none - the one the domain's requests stand out for
   * most, if several: "ecobee smart thermostat with room sensors" (requests 1.74 σ) beside a
   * smart home whose "plugs and switches" come as near the energy's line (0.07 σ).
   */
  claimant(domainId: string): string | undefined {
    const assignment = this.assignments.find((a) => a.domain === domainId);
    if (!assignment || assignment.agentId !== undefined) return undefined;
    const [first] = assignment.cards.filter((c) => c.claims).sort((a, b) => b.requestStanding - a.requestStanding);
    return first?.agentId;
  }

  /** The agent serving a domain, for the agent set last assigned. */
  agentFor(domainId: string): string | undefined {
    return this.servedBy[EVERYDAY_DOMAINS.findIndex((d) => d.id === domainId)];
  }

  /** The domain of the everyday request nearest to `request`; undefined before the domains are embedded. */
  classify(request: Float32Array): DomainVerdict | undefined {
    if (!this.embedded) return undefined;
    // The nearest everyday saying for each outcome: an agent, or none ('').
    const best = new Map<string, { similarity: number; domain: number; index: number }>();
    this.embedded.sayings.forEach((vector, index) => {
      const { domain, alsoSaid } = EVERYDAY_SAYINGS[index];
      const outcome = this.servedBy[domain] ?? '';
      const similarity = cosine(request, vector);
      if (alsoSaid && similarity < ALSO_SAID_MIN) return;
      const current = best.get(outcome);
      if (!current || similarity > current.similarity) best.set(outcome, { similarity, domain, index });
    });
    const [first, second] = [...best.values()].sort((a, b) => b.similarity - a.similarity);
    if (!first) return undefined;
    const domain = EVERYDAY_DOMAINS[first.domain];
    return {
      domain: domain.id,
      agentId: this.servedBy[first.domain],
      nearest: EVERYDAY_SAYINGS[first.index].text,
      similarity: first.similarity,
      lead: first.similarity - (second?.similarity ?? 0),
    };
  }

  /** The domains' lines and sayings; the requests among them come from the encoder's cache once CardVectors has embedded them as its background. */
  private async embed() {
    if (this.embedded) return this.embedded;
    const vectors = await this.encoder.embed([
      ...EVERYDAY_DOMAINS.map((d) => d.description),
      ...EVERYDAY_SAYINGS.map((s) => s.text),
    ]);
    const descriptions = vectors.slice(0, EVERYDAY_DOMAINS.length);
    const sayings = vectors.slice(EVERYDAY_DOMAINS.length);
    const requests = EVERYDAY_SAYINGS.flatMap(({ domain, alsoSaid }, i) =>
      alsoSaid ? [] : [{ domain, vector: sayings[i] }],
    );
    return (this.embedded = { descriptions, requests, sayings });
  }
}

/**
 * The card nearest a domain by its lines, if its claim holds - or, among claims as near (LINE_TIE),
 * the one the domain's requests stand out for most, if clearly more (TIE_BROKEN_BY) than for it;
 * or, among claims less near (SERVING_BAND), the one most of the domain's `requests` vote for, if
 * they stand out for it far more (VOTED_BY).
 */
function nearestClaim<T extends { similarity: number; claims: boolean; requestStanding: number; votes: number }>(
  ranked: readonly T[],
  requests: number,
): T | undefined {
  const [first] = ranked;
  if (!first?.claims) return undefined;
  const [rival] = ranked
    .filter((c) => c.claims && c.similarity >= first.similarity - LINE_TIE)
    .filter((c) => c.requestStanding >= first.requestStanding + TIE_BROKEN_BY)
    .sort((a, b) => b.requestStanding - a.requestStanding);
  if (rival) return rival;
  const backed = ranked.find(
    (c) =>
      c.claims &&
      c.similarity >= first.similarity - SERVING_BAND &&
      c.votes > requests / 2 &&
      c.requestStanding >= first.requestStanding + VOTED_BY,
  );
  return backed ?? first;
}

/**
 * For each domain (its description's vector), whether a line of the card claims it: comes within
 * MIN_SERVING of it and within SERVING_BAND of the domain that line is nearest.
 */
function claimed(lines: readonly Float32Array[], descriptions: readonly Float32Array[]): boolean[] {
  const claims = descriptions.map(() => false);
  for (const line of lines) {
    const near = descriptions.map((description) => cosine(line, description));
    const top = Math.max(...near);
    near.forEach((value, d) => {
      if (value >= MIN_SERVING && value >= top - SERVING_BAND) claims[d] = true;
    });
  }
  return claims;
}

function mean(values: number[]): number {
  return values.length ? values.reduce((sum, x) => sum + x, 0) / values.length : 0;
}
