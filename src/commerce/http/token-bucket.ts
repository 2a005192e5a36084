import { KeyValueStore, TokenBucketRule } from '../../platform/kv/key-value-store';

export interface BucketDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until a request would be allowed (0 when allowed). */
  retryAfterSeconds: number;
  /** Unix seconds when the bucket is full again. */
  resetAt: number;
}

/**
 * A token bucket per client in the key-value store (Redis across replicas): `perMinute` requests a
 * minute, refilled continuously, so a client that hit the limit may go on within a second or two —
 * an honest, short Retry-After that clients backing off 1, 2, 4 s can live with. Each take is one
 * atomic step of the store (`takeToken`), so concurrent requests, on any replica, are each counted:
 * of N at once against a bucket holding C tokens exactly C go through.
 */
export class TokenBucket {
  private readonly rule: TokenBucketRule;

  constructor(
    private readonly kv: KeyValueStore,
    perMinute: number,
  ) {
    this.rule = { capacity: perMinute, refillPerSecond: perMinute / 60 };
  }

  async take(client: string): Promise<BucketDecision> {
    const taken = await this.kv.takeToken(`shop:rate:${client}`, this.rule);
    return {
      allowed: taken.allowed,
      limit: this.rule.capacity,
      remaining: Math.floor(taken.tokens),
      retryAfterSeconds: taken.allowed ? 0 : Math.max(1, Math.ceil(taken.retryAfterMs / 1000)),
      resetAt: Math.ceil((Date.now() + taken.fullInMs) / 1000),
    };
  }
}
