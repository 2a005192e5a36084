import { Logger } from '@nestjs/common';
import { AppConfig } from '../../platform/config/app-config';
import { KeyValueStore, TokenBucketRule } from '../../platform/kv/key-value-store';
import { storeFailed } from '../../platform/rate-limit/rate-limiter';

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
 * of N at once against a bucket holding C tokens exactly C go through. When the store cannot be
 * reached it does what every rate limit does (RATE_LIMIT_FAIL_OPEN): refuses, or lets the request
 * through uncounted (undefined).
 */
export class TokenBucket {
  private readonly logger = new Logger('RateLimit');
  private readonly rule: TokenBucketRule;

  constructor(
    private readonly kv: KeyValueStore,
    private readonly config: AppConfig,
  ) {
    const perMinute = config.commerce.rateLimitPerMinute;
    this.rule = { capacity: perMinute, refillPerSecond: perMinute / 60 };
  }

  async take(client: string): Promise<BucketDecision | undefined> {
    let taken;
    try {
      taken = await this.kv.takeToken(`shop:rate:${client}`, this.rule);
    } catch (error) {
      return storeFailed(error, this.config, this.logger);
    }
    return {
      allowed: taken.allowed,
      limit: this.rule.capacity,
      remaining: Math.floor(taken.tokens),
      retryAfterSeconds: taken.allowed ? 0 : Math.max(1, Math.ceil(taken.retryAfterMs / 1000)),
      resetAt: Math.ceil((Date.now() + taken.fullInMs) / 1000),
    };
  }
}
