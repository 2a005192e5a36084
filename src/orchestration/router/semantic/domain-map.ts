import { EVERYDAY_DOMAINS, EVERYDAY_REQUESTS } from './everyday-domains';
import { cosine, SentenceEncoder } from './sentence-encoder';

/** How close (cosine) a domain's description must come to a card's closest line for the card to serve it. */
const MIN_SERVING = 0.55;
/**
 * How far below the closest any domain comes to a card a domain may be and still be served by it:
 * a card serves what it is about, not every domain it brushes against (a shop of mugs and hoodies
 * is near groceries, but nearer shopping).
 */
const SERVING_BAND = 0.1;
/**
 * Or else: the share of a domain's everyday requests that stand out most for one card, by at
 * least VOTE_STANDING (standard deviations, CardVectors.standing), for that card to serve it - a
 * card of many skills ("lights, climate, covers and locks") is near each of its domains by its
 * requests, where no line of it may be near the domain's own.
 */
const VOTE_SHARE = 0.5;
const VOTE_STANDING = 1.5;
/** …and never fewer requests than this: two of a small domain's four say little. */
const MIN_VOTES = 3;

/** What DomainMap needs of the hosted cards (CardVectors). */
export interface CardLines {
  /** The vectors of an agent's card lines: its description, each skill, its tags and examples. */
  lines(agentId: string): readonly Float32Array[];
  /** How far a vector stands out for an agent's card (CardVectors.standing). */
  standing(vector: Float32Array, agentId: string): number;
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
  /** Which rule gave it: the card's closest line near the domain's, or its requests' votes. */
  by?: 'line' | 'votes';
  /** Every card, nearest the domain's line first. */
  cards: {
    agentId: string;
    /** The card's closest line to the domain's (cosine)… */
    similarity: number;
    /** …whether it is near enough and among what the card is most about (MIN_SERVING, SERVING_BAND)… */
    claims: boolean;
    /** …how far the domain's requests stand out for the card on average (σ; not used to decide)… */
    requestStanding: number;
    /** …and how many of the domain's requests stand out most for it (VOTE_STANDING), of `requests`. */
    votes: number;
  }[];
  requests: number;
}

/**
 * The everyday domains (EVERYDAY_DOMAINS) against the hosted cards: which agent serves each - the
 * card with a line nearest the domain's description, if near enough, if that domain is among what
 * the line is most about and if the domain's requests stand out for the card; else the card most
 * of them stand out most for - and, for a request, the domain of the everyday request
 * nearest to it. A request that says nothing any card says ("I'm freezing") finds its agent through
 * its domain (the heating: the smart home); one whose domain no hosted agent serves ("pay the
 * gas bill") is known as such instead of going to whichever card is least far.
 */
export class DomainMap {
  private embedded?: { descriptions: Float32Array[]; requests: { domain: number; vector: Float32Array }[] };
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
    // The closest any domain comes to each card.
    const most = agentIds.map((_, a) => Math.max(...nearness.map((row) => row[a])));
    this.assignments = embedded.descriptions.map((_, domain) => {
      const requests = embedded.requests.filter((r) => r.domain === domain).map((r) => r.vector);
      const votes = this.votes(requests, agentIds, cards);
      const ranked = agentIds
        .map((agentId, a) => {
          const similarity = nearness[domain][a];
          const requestStanding = mean(requests.map((request) => cards.standing(request, agentId)));
          // A card serves what it is about: a domain near its closest line, and near what it is most about.
          const claims = similarity >= MIN_SERVING && similarity >= most[a] - SERVING_BAND;
          return { agentId, similarity, claims, requestStanding, votes: votes.get(agentId) ?? 0 };
        })
        .sort((x, y) => y.similarity - x.similarity);
      const assignment: DomainAssignment = {
        domain: EVERYDAY_DOMAINS[domain].id,
        cards: ranked,
        requests: requests.length,
      };
      // The card nearest by its closest line, if it is about the domain.
      const served = ranked[0]?.claims ? ranked[0] : undefined;
      if (served) return { ...assignment, agentId: served.agentId, by: 'line' };
      const [winner] = [...votes].sort((a, b) => b[1] - a[1]);
      const voted = winner && winner[1] >= Math.max(MIN_VOTES, VOTE_SHARE * requests.length);
      return voted ? { ...assignment, agentId: winner[0], by: 'votes' } : assignment;
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

  /** The agent serving a domain, for the agent set last assigned. */
  agentFor(domainId: string): string | undefined {
    return this.servedBy[EVERYDAY_DOMAINS.findIndex((d) => d.id === domainId)];
  }

  /** The domain of the everyday request nearest to `request`; undefined before the domains are embedded. */
  classify(request: Float32Array): DomainVerdict | undefined {
    if (!this.embedded) return undefined;
    // The nearest everyday request for each outcome: an agent, or none ('').
    const best = new Map<string, { similarity: number; domain: number; index: number }>();
    this.embedded.requests.forEach(({ domain, vector }, index) => {
      const outcome = this.servedBy[domain] ?? '';
      const similarity = cosine(request, vector);
      const current = best.get(outcome);
      if (!current || similarity > current.similarity) best.set(outcome, { similarity, domain, index });
    });
    const [first, second] = [...best.values()].sort((a, b) => b.similarity - a.similarity);
    if (!first) return undefined;
    const domain = EVERYDAY_DOMAINS[first.domain];
    return {
      domain: domain.id,
      agentId: this.servedBy[first.domain],
      nearest: EVERYDAY_REQUESTS[first.index],
      similarity: first.similarity,
      lead: first.similarity - (second?.similarity ?? 0),
    };
  }

  /** The domains' lines and requests; the requests come from the encoder's cache once CardVectors has embedded them as its background. */
  private async embed() {
    if (this.embedded) return this.embedded;
    const vectors = await this.encoder.embed([...EVERYDAY_DOMAINS.map((d) => d.description), ...EVERYDAY_REQUESTS]);
    const descriptions = vectors.slice(0, EVERYDAY_DOMAINS.length);
    const requests = vectors
      .slice(EVERYDAY_DOMAINS.length)
      .map((vector, i) => ({ domain: REQUEST_DOMAINS[i], vector }));
    return (this.embedded = { descriptions, requests });
  }
}

function mean(values: number[]): number {
  return values.length ? values.reduce((sum, x) => sum + x, 0) / values.length : 0;
}

/** The domain (index) of each of EVERYDAY_REQUESTS. */
const REQUEST_DOMAINS = EVERYDAY_DOMAINS.flatMap((d, i) => d.requests.map(() => i));
