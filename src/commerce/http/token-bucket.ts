import { KeyValueStore } from '../../platform/kv/key-value-store';

export interface BucketDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until a request would be allowed (0 when allowed). */
  retryAfterSeconds: number;
  /** Unix seconds when the bucket is full again. */
  resetAt: number;
}

interface BucketState {
  tokens: number;
  at: number;
}

const MAX_ATTEMPTS = 8;

/**
 * A token bucket per client in the key-value store (Redis across replicas): `perMinute` requests a
 * minute, refilled continuously, so a client that hit the limit may go on within a second or two —
 * an honest, short Retry-After that clients backing off 1, 2, 4 s can live with. Updates are
 * compare-and-set, so replicas share one bucket.
 */
export class TokenBucket {
  constructor(
    private readonly kv: KeyValueStore,
    private readonly perMinute: number,
  ) {}

  async take(client: string, now = Date.now()): Promise<BucketDecision> {
    const key = `shop:rate:${client}`;
    const capacity = this.perMinute;
    const perMs = this.perMinute / 60_000;
    for (let attempt = 0; ; attempt++) {
      const stored = await this.kv.get(key);
      const previous = stored ? (JSON.parse(stored.value) as BucketState) : { tokens: capacity, at: now };
      const tokens = Math.min(capacity, previous.tokens + Math.max(0, now - previous.at) * perMs);
      const allowed = tokens >= 1;
      const next: BucketState = { tokens: allowed ? tokens - 1 : tokens, at: now };
      const fullInMs = (capacity - next.tokens) / perMs;
      const decision: BucketDecision = {
        allowed,
        limit: capacity,
        remaining: Math.floor(next.tokens),
        retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil((1 - tokens) / perMs / 1000)),
        resetAt: Math.ceil((now + fullInMs) / 1000),
      };
      if (!allowed) return decision;
      const written = await this.kv.compareAndSet(key, stored?.etag ?? null, JSON.stringify(next), {
        ttlMs: Math.max(1_000, Math.ceil(fullInMs) + 1_000),
      });
      if (written.ok || attempt >= MAX_ATTEMPTS) return decision;
    }
  }
}
