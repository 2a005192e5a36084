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
 * requests, where its closest line may not be near the domain's own.
 */
const VOTE_SHARE = 0.5;
const VOTE_STANDING = 1.5;
/** …and never fewer requests than this: two of a small domain's four say little. */
const MIN_VOTES = 3;

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

/**
 * The everyday domains (EVERYDAY_DOMAINS) against the hosted cards: which agent serves each - the
 * card whose closest line is nearest the domain's description, if near enough and if that domain
 * is among what the card is most about - and, for a request, the domain of the everyday request
 * nearest to it. A request that says nothing any card says ("I'm freezing") finds its agent through
 * its domain (the heating: the smart home); one whose domain no hosted agent serves ("pay the
 * gas bill") is known as such instead of going to whichever card is least far.
 */
export class DomainMap {
  private embedded?: { descriptions: Float32Array[]; requests: { domain: number; vector: Float32Array }[] };
  /** The agent serving each domain (EVERYDAY_DOMAINS' order), for the agent set last assigned. */
  private servedBy: (string | undefined)[] = [];

  constructor(private readonly encoder: SentenceEncoder) {}

  /**
   * Decides which of `agentIds` serves each domain; `similarity` is a card's closest line to a
   * vector (CardVectors.similarity), `standing` how far a vector stands out for a card
   * (CardVectors.standing). The domains are embedded on first use, in one batch.
   */
  async assign(
    agentIds: readonly string[],
    similarity: (vector: Float32Array, agentId: string) => number,
    standing: (vector: Float32Array, agentId: string) => number,
  ): Promise<void> {
    const embedded = await this.embed();
    const closeness = embedded.descriptions.map((vector) => agentIds.map((id) => similarity(vector, id)));
    // The closest any domain comes to each card.
    const most = agentIds.map((_, a) => Math.max(...closeness.map((row) => row[a])));
    this.servedBy = closeness.map((row, domain) => {
      let best = -1;
      row.forEach((value, a) => {
        if (best < 0 || value > row[best]) best = a;
      });
      if (best < 0) return undefined;
      const near = row[best] >= MIN_SERVING && row[best] >= most[best] - SERVING_BAND;
      if (near) return agentIds[best];
      const requests = embedded.requests.filter((r) => r.domain === domain).map((r) => r.vector);
      return this.votedFor(requests, agentIds, standing);
    });
  }

  /** The card most of these requests stand out for most (VOTE_SHARE, VOTE_STANDING), if any. */
  private votedFor(
    requests: Float32Array[],
    agentIds: readonly string[],
    standing: (vector: Float32Array, agentId: string) => number,
  ): string | undefined {
    const votes = new Map<string, number>();
    for (const vector of requests) {
      let top: string | undefined;
      let topStanding = VOTE_STANDING;
      for (const id of agentIds) {
        const value = standing(vector, id);
        if (value >= topStanding) [top, topStanding] = [id, value];
      }
      if (top) votes.set(top, (votes.get(top) ?? 0) + 1);
    }
    const [winner] = [...votes].sort((a, b) => b[1] - a[1]);
    return winner && winner[1] >= Math.max(MIN_VOTES, VOTE_SHARE * requests.length) ? winner[0] : undefined;
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

/** The domain (index) of each of EVERYDAY_REQUESTS. */
const REQUEST_DOMAINS = EVERYDAY_DOMAINS.flatMap((d, i) => d.requests.map(() => i));
