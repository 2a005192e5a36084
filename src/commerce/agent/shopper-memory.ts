import { Injectable } from '@nestjs/common';
import { KeyValueStore } from '../../platform/kv/key-value-store';
import type { ShopSessionEntity } from '../entities/shop-session.entity';
import { ShopSessionsService } from '../shop-sessions.service';

/** The products a conversation last talked about. */
export interface ShopperFocus {
  /** Product ids of the last search, in rank order ("the second one"). */
  results: string[];
  /** The product "it" means. */
  focus?: string;
}

/**
 * What the commerce agent remembers of a conversation, in the key-value store (Redis across
 * replicas), keyed by the caller's owner and the A2A contextId, for as long as a shop session
 * lives: the id of its shop session (never a token) and the products last talked about.
 */
@Injectable()
export class ShopperMemory {
  constructor(
    private readonly kv: KeyValueStore,
    private readonly sessions: ShopSessionsService,
  ) {}

  private get ttlMs(): number {
    return this.sessions.ttlSeconds * 1000;
  }

  async recall(owner: string, contextId: string): Promise<ShopperFocus> {
    const stored = await this.kv.get(key(owner, contextId, 'focus'));
    return stored ? (JSON.parse(stored.value) as ShopperFocus) : { results: [] };
  }

  /** A search's results; the best one becomes "it" (none found: nothing is). */
  async remember(owner: string, contextId: string, results: string[]): Promise<void> {
    await this.write(owner, contextId, { results, focus: results[0] });
  }

  async focus(owner: string, contextId: string, productId: string): Promise<void> {
    const { results } = await this.recall(owner, contextId);
    await this.write(owner, contextId, { results, focus: productId });
  }

  /**
   * The conversation's live shop session. Without one (or when it expired), `create` starts a new
   * one - compare-and-set, so two turns racing on a new conversation share one cart; `renewed`
   * says an earlier one had expired.
   */
  async session(
    owner: string,
    contextId: string,
    create: boolean,
  ): Promise<{ session: ShopSessionEntity; renewed: boolean } | undefined> {
    const k = key(owner, contextId, 'session');
    const stored = await this.kv.get(k);
    const live = stored && (await this.sessions.live(stored.value));
    if (live) return { session: live, renewed: false };
    if (!create) return undefined;
    const { session } = await this.sessions.create();
    const written = await this.kv.compareAndSet(k, stored?.etag ?? null, session.id, { ttlMs: this.ttlMs });
    if (written.ok) return { session, renewed: stored !== null };
    await this.sessions.end(session);
    const winner = written.current && (await this.sessions.live(written.current.value));
    if (!winner) throw new Error('The conversation’s shop session changed while it was being created');
    return { session: winner, renewed: false };
  }

  private async write(owner: string, contextId: string, value: ShopperFocus): Promise<void> {
    await this.kv.set(key(owner, contextId, 'focus'), JSON.stringify(value), { ttlMs: this.ttlMs });
  }
}

function key(owner: string, contextId: string, part: 'session' | 'focus'): string {
  return `commerce:shopper:${owner}:${contextId}:${part}`;
}
