import type { ThrottlerStorage } from '@nestjs/throttler';
import { KeyValueStore } from '../kv/key-value-store';

/**
 * @nestjs/throttler storage on the KeyValueStore port: a fixed window per key, counted atomically
 * in Redis (so the limit holds across replicas) or in process. Times are in seconds, as the
 * throttler expects; a blocked caller stays blocked until its window ends.
 */
export class KeyValueThrottlerStorage implements ThrottlerStorage {
  constructor(private readonly kv: KeyValueStore) {}

  async increment(key: string, ttlMs: number, limit: number): ReturnType<ThrottlerStorage['increment']> {
    const { count, ttlMs: remainingMs } = await this.kv.increment(`rate-limit:${key}`, ttlMs);
    const seconds = Math.max(1, Math.ceil(remainingMs / 1000));
    const isBlocked = count > limit;
    return { totalHits: count, timeToExpire: seconds, isBlocked, timeToBlockExpire: isBlocked ? seconds : 0 };
  }
}
