import { Inject, Injectable, Logger } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { randomUUID } from 'node:crypto';
import { DataSource, Repository } from 'typeorm';
import { DomainError } from '../../platform/errors/domain-error';
import { terms } from '../router/text-analysis';
import { LearnedRouteEntity } from './learned-route.entity';

/** Learned requests kept per owner; the oldest go first. */
export const MAX_LEARNED_PER_OWNER = 200;
/** How long a replica trusts what it read of an owner's learned requests (others' changes show within it). */
const CACHE_MS = 30_000;

export interface LearnedRoute {
  id: string;
  owner: string;
  example: string;
  agentId: string;
  createdAt: Date;
}

/**
 * What the orchestrator learns from its own clarifications: when a user answers "Did you mean…?"
 * by naming an agent, the request is kept (per owner, at most MAX_LEARNED_PER_OWNER, in
 * PostgreSQL) so the same phrasing - the same terms, in any order - goes to that agent directly
 * next time. Operators list and remove them at /internal/orchestration/learned-routes.
 *
 * Routing never waits for the database: each replica keeps an owner's learned requests in memory
 * for CACHE_MS; an owner not in memory is read in the background and routed without them until
 * then. A replica sees what it learned at once, another within CACHE_MS.
 */
@Injectable()
export class LearnedRoutes {
  private readonly logger = new Logger('LearnedRoutes');
  private readonly repo: Repository<LearnedRouteEntity>;
  private readonly byOwner = new LRUCache<string, Map<string, string>>({ max: 10_000, ttl: CACHE_MS });
  private readonly loading = new Set<string>();

  constructor(@Inject(DataSource) dataSource: DataSource) {
    this.repo = dataSource.getRepository(LearnedRouteEntity);
  }

  /** The agent this owner's request was settled with before, if it is among `hosted`. */
  agentFor(owner: string, request: string, hosted: ReadonlySet<string>): string | undefined {
    const learned = this.byOwner.get(owner);
    if (!learned) {
      this.load(owner);
      return undefined;
    }
    const agent = learned.get(phraseOf(request));
    return agent && hosted.has(agent) ? agent : undefined;
  }

  /** Keeps `request` as settled with `agentId`, replacing what the same phrasing was settled with before. */
  async learn(owner: string, request: string, agentId: string): Promise<void> {
    const phrase = phraseOf(request);
    if (!phrase) return;
    await this.repo
      .createQueryBuilder()
      .insert()
      .values({ id: randomUUID(), owner, phrase, example: request, agentId, createdAt: new Date() })
      .orUpdate(['example', 'agent_id', 'created_at'], ['owner', 'phrase'])
      .execute();
    await this.repo.query(
      `DELETE FROM learned_routes WHERE owner = $1 AND id IN (
         SELECT id FROM learned_routes WHERE owner = $1 ORDER BY created_at DESC OFFSET $2)`,
      [owner, MAX_LEARNED_PER_OWNER],
    );
    this.byOwner.get(owner)?.set(phrase, agentId);
  }

  /** Newest first; every owner's when `owner` is undefined. */
  async list(owner: string | undefined, limit: number): Promise<LearnedRoute[]> {
    const rows = await this.repo.find({ where: owner ? { owner } : {}, order: { createdAt: 'DESC' }, take: limit });
    return rows.map(({ id, owner: of, example, agentId, createdAt }) => ({
      id,
      owner: of,
      example,
      agentId,
      createdAt,
    }));
  }

  async remove(id: string): Promise<void> {
    const row = await this.repo.findOne({ where: { id } });
    if (!row) throw DomainError.notFound('Learned route', id);
    await this.repo.delete({ id });
    this.byOwner.delete(row.owner);
  }

  private load(owner: string): void {
    if (this.loading.has(owner)) return;
    this.loading.add(owner);
    this.repo
      .find({ where: { owner }, select: ['phrase', 'agentId'] })
      .then((rows) => void this.byOwner.set(owner, new Map(rows.map((r) => [r.phrase, r.agentId]))))
      .catch((error: Error) => this.logger.warn(`Could not read the learned routes of ${owner}: ${error.message}`))
      .finally(() => this.loading.delete(owner));
  }
}

/** A request's terms, deduplicated and sorted: "turn the heat up" and "up the heat, turn" are one phrase. */
function phraseOf(request: string): string {
  return [...new Set(terms(request))].sort().join(' ');
}
