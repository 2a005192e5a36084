import type { ThrottlerStorage } from '@nestjs/throttler';
import { KeyValueStore } from '../kv/key-value-store';

type ThrottlerRecord = Awaited<ReturnType<ThrottlerStorage['increment']>>;

/** The most a replica claims at once for one caller. */
const MOST_PER_CLAIM = 64;
/** A lease spent faster than this doubles the next claim; a slower one claims one again. */
const BUSY_MS = 1_000;
/** Leases kept at most; past it the one claimed longest ago goes (its tokens are simply not spent). */
const MAX_LEASES = 10_000;

/** What this replica holds of a window: tokens claimed from the store and not yet spent. */
interface Lease {
  /** Local time by which the store's window has surely ended (measured from before the claim). */
  until: number;
  /** The window's count at the store after the last claim. */
  count: number;
  left: number;
  /** The store granted nothing: the window's limit is reached until it ends. */
  full: boolean;
  /** What the last claim got. */
  granted: number;
  /** What the next claim asks for. */
  next: number;
  claimedAt: number;
}

/**
 * @nestjs/throttler storage on the KeyValueStore port: a fixed window per key, counted atomically
 * in Redis (so the limit holds across replicas) or in process. Times are in seconds, as the
 * throttler expects; a blocked caller stays blocked until its window ends.
 *
 * A busy caller does not cost a store round trip per request: the replica claims a few of the
 * window's requests at once (KeyValueStore.claim) and lets them through locally. A claim asks for
 * twice the last one when that was spent within a second (up to 64), else for one, and never gets
 * more than a sixteenth of what the window has left: the window's count never passes the limit, the
 * limit is exact as it runs out, a caller who sends a request now and then is counted one by one,
 * and one refused by a replica while another holds unspent tokens is refused at most about a
 * second of its requests early. A full window is remembered until it ends (nothing can free it),
 * so refused callers cost no round trip either. Concurrent requests of one caller share one claim
 * in flight, and a busy caller's next claim is made when half of a lease is spent, so its requests
 * do not wait for it.
 */
export class KeyValueThrottlerStorage implements ThrottlerStorage {
  private readonly leases = new Map<string, Lease>();
  private readonly claiming = new Map<string, Promise<void>>();

  constructor(private readonly kv: KeyValueStore) {}

  async increment(key: string, ttlMs: number, limit: number): Promise<ThrottlerRecord> {
    for (;;) {
      const now = Date.now();
      const lease = this.leases.get(key);
      if (lease && lease.until > now && (lease.left > 0 || lease.full)) {
        const record = spend(lease, limit, now);
        // Half of a lease of several left: the next claim goes now, so no request waits for it.
        // (Not at a window's tail, granted one by one, where a token claimed ahead could go unspent.)
        if (!lease.full && lease.granted > 1 && lease.left <= lease.granted / 2 && !this.claiming.has(key)) {
          this.claim(key, ttlMs, limit, lease).catch(() => undefined); // a request that needs it sees the failure
        }
        return record;
      }
      await (this.claiming.get(key) ?? this.claim(key, ttlMs, limit, lease));
    }
  }

  private claim(key: string, ttlMs: number, limit: number, last: Lease | undefined): Promise<void> {
    const started = Date.now();
    const next = !last ? 1 : started - last.claimedAt < BUSY_MS ? Math.min(MOST_PER_CLAIM, last.next * 2) : 1;
    const claiming = this.kv
      .claim(`rate-limit:${key}`, ttlMs, limit, next)
      .then(({ count, granted, ttlMs: leftMs }) => {
        const until = started + leftMs;
        // Tokens still held of the same window (claimed ahead, before they ran out) are kept.
        const held = this.leases.get(key);
        const same = held !== undefined && held.until > Date.now() && Math.abs(held.until - until) < ttlMs / 2;
        const left = (same ? held.left : 0) + granted;
        this.keep(key, { until, count, left, full: granted === 0, granted, next, claimedAt: started });
      })
      .finally(() => this.claiming.delete(key));
    this.claiming.set(key, claiming);
    return claiming;
  }

  /** Keeps a lease, last in the map's order: past MAX_LEASES the one claimed longest ago goes. */
  private keep(key: string, lease: Lease): void {
    this.leases.delete(key);
    if (this.leases.size >= MAX_LEASES) this.leases.delete(this.leases.keys().next().value!);
    this.leases.set(key, lease);
  }
}

/** Lets one request through on a lease, or refuses it once the window is full. */
function spend(lease: Lease, limit: number, now: number): ThrottlerRecord {
  const seconds = Math.max(1, Math.ceil((lease.until - now) / 1000));
  if (lease.left === 0)
    return { totalHits: limit + 1, timeToExpire: seconds, isBlocked: true, timeToBlockExpire: seconds };
  lease.left -= 1;
  return { totalHits: lease.count - lease.left, timeToExpire: seconds, isBlocked: false, timeToBlockExpire: 0 };
}
