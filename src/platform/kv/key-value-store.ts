/** A value with the opaque version tag that compare-and-set checks. */
export interface StoredValue {
  value: string;
  etag: string;
}

export interface WriteOptions {
  /** Time to live in milliseconds; omit to keep the value until it is deleted. */
  ttlMs?: number;
  /**
   * With the write, and only if it is made, flag the key in the set `set` at time `at` (ms since
   * the epoch; a later flag replaces an earlier one): work still owed for the key that must not
   * be forgotten if this process dies before doing it (see `flagged`, `unflag`).
   */
  flag?: { set: string; at: number };
}

/** A key flagged in a set, and when. */
export interface Flag {
  key: string;
  at: number;
}

export type CompareAndSetResult = { ok: true; etag: string } | { ok: false; current: StoredValue | null };

/** What a claim on a fixed window's count got. */
export interface Claim {
  /** The count after this claim. */
  count: number;
  /** How many were granted: 0 once the window's limit is reached. */
  granted: number;
  /** Milliseconds until the window (and the count) expires. */
  ttlMs: number;
}

/**
 * A claim takes at most this fraction of what a window has left (at least one), so while a limit
 * runs out its last `2 * CLAIM_SHARE - 1` are granted one by one.
 */
export const CLAIM_SHARE = 16;

/** A token bucket: how much it holds and how fast it refills. */
export interface TokenBucketRule {
  /** Tokens in a full bucket (a bucket never taken from is full): the burst a client may make. */
  capacity: number;
  /** Tokens added back per second, continuously, up to the capacity. */
  refillPerSecond: number;
}

export interface TokenTake {
  /** Whether a token was taken. */
  allowed: boolean;
  /** Tokens left in the bucket after this take (fractional: the bucket refills continuously). */
  tokens: number;
  /** Milliseconds until a token can be taken: 0 when this one was. */
  retryAfterMs: number;
  /** Milliseconds until the bucket is full again. */
  fullInMs: number;
}

/**
 * The key-value port (see ARCHITECTURE.md). Redis adapter when REDIS_URL is set, in-process
 * otherwise; both pass the same contract suite. Keys are namespaced by the adapter.
 * Every method fails with DomainError SERVICE_UNAVAILABLE when the backend cannot be reached.
 */
export abstract class KeyValueStore {
  /** 'redis' or 'in-process' (one replica only). */
  abstract readonly kind: 'redis' | 'in-process';

  abstract get(key: string): Promise<StoredValue | null>;

  /**
   * `get`, and when the key exists its time to live starts again at `ttlMs` (value and etag stay):
   * a sliding expiry read in one round trip.
   */
  abstract getAndRenew(key: string, ttlMs: number): Promise<StoredValue | null>;

  /** Unconditional write; returns the new etag. */
  abstract set(key: string, value: string, options?: WriteOptions): Promise<string>;

  /**
   * Starts an unconditional write and resolves once it is sent - ahead of every command this
   * process sends later - without waiting for the store to confirm it; a failure goes to
   * `onError`. For bookkeeping that must not hold an answer back and whose loss is tolerable.
   */
  async setUnconfirmed(
    key: string,
    value: string,
    options: WriteOptions,
    onError: (error: unknown) => void,
  ): Promise<void> {
    this.set(key, value, options).catch(onError);
    await this.sent();
  }

  /** Returns true if the key existed. */
  abstract delete(key: string): Promise<boolean>;

  /**
   * Writes only if the current etag equals `expectedEtag` (`null`: only if the key is absent).
   * Atomic: of two writers holding the same etag exactly one succeeds.
   */
  abstract compareAndSet(
    key: string,
    expectedEtag: string | null,
    value: string,
    options?: WriteOptions,
  ): Promise<CompareAndSetResult>;

  /**
   * Claims up to `most` of the `limit` a fixed window allows, and never more than a CLAIM_SHARE-th
   * of what it has left (at least one): adds what it grants to the window's count, atomically, so
   * concurrent claims never grant past the limit. The first claim starts a window of `windowMs`;
   * the count disappears when the window ends (as rate limits need).
   */
  abstract claim(key: string, windowMs: number, limit: number, most: number): Promise<Claim>;

  /**
   * Takes one token from the bucket at `key` if it holds one, refilling it first for the time that
   * passed (by the store's clock, so replicas share one). Atomic: of N concurrent takes on a
   * bucket holding C tokens exactly C succeed. A refused take changes nothing; the key disappears
   * once the bucket would be full again (a missing bucket is a full one, so `delete` refills it).
   */
  abstract takeToken(key: string, rule: TokenBucketRule): Promise<TokenTake>;

  /** The keys flagged in `set` at or before `before` (ms since the epoch), oldest first, at most `limit`. */
  abstract flagged(set: string, before: number, limit: number): Promise<Flag[]>;

  /** Clears each key's flag in `set` if it was set at or before `upTo` (a newer flag stays). */
  abstract unflag(set: string, flags: { key: string; upTo: number }[]): Promise<void>;

  /** Throws if the backend is unreachable; for health checks. */
  abstract ping(): Promise<void>;

  /** Resolves once the writes started so far are on their way to the store (in process: already done). */
  protected async sent(): Promise<void> {}
}

/**
 * The state of a bucket as both adapters store it (the Redis script reads and writes the same
 * JSON): tokens left, and when (ms since the epoch, the store's clock) that was counted.
 */
export interface TokenBucketState {
  tokens: number;
  at: number;
}

/** The stored state of a bucket; null for a missing key (or one holding anything else: a full bucket). */
export function parseBucketState(value: string | undefined): TokenBucketState | null {
  if (value === undefined) return null;
  try {
    const state = JSON.parse(value) as Partial<TokenBucketState> | null;
    return typeof state?.tokens === 'number' && typeof state.at === 'number'
      ? { tokens: state.tokens, at: state.at }
      : null;
  } catch {
    return null;
  }
}

/**
 * One take from a bucket at `now`: the outcome and, when a token was taken, the state to store
 * (a refused take stores nothing). The in-process adapter runs this; the Redis script is its twin.
 */
export function takeFromBucket(
  stored: TokenBucketState | null,
  rule: TokenBucketRule,
  now: number,
): TokenTake & { next?: TokenBucketState } {
  const perMs = rule.refillPerSecond / 1000;
  const previous = stored ?? { tokens: rule.capacity, at: now };
  const tokens = Math.min(rule.capacity, previous.tokens + Math.max(0, now - previous.at) * perMs);
  if (tokens < 1) {
    return {
      allowed: false,
      tokens,
      retryAfterMs: Math.ceil((1 - tokens) / perMs),
      fullInMs: Math.ceil((rule.capacity - tokens) / perMs),
    };
  }
  const left = tokens - 1;
  return {
    allowed: true,
    tokens: left,
    retryAfterMs: 0,
    fullInMs: Math.ceil((rule.capacity - left) / perMs),
    next: { tokens: left, at: now },
  };
}

/** Both adapters reject the same bad buckets. */
export function assertBucketRule(rule: TokenBucketRule): void {
  if (!Number.isInteger(rule.capacity) || rule.capacity < 1)
    throw new RangeError(`A bucket's capacity must be a positive integer, got ${rule.capacity}`);
  if (!Number.isFinite(rule.refillPerSecond) || rule.refillPerSecond <= 0)
    throw new RangeError(`A bucket's refill must be a positive number per second, got ${rule.refillPerSecond}`);
}

/** Both adapters reject the same bad TTLs, so code that works on one works on the other. */
export function assertTtl(ttlMs: number): void {
  if (!Number.isInteger(ttlMs) || ttlMs <= 0)
    throw new RangeError(`TTL must be a positive integer of ms, got ${ttlMs}`);
}

/** Checks a claim's arguments (claim above); the window's length is a TTL. */
export function assertClaim(windowMs: number, limit: number, most: number): void {
  assertTtl(windowMs);
  if (!Number.isInteger(limit) || limit < 0) throw new RangeError(`A limit must be a whole number, got ${limit}`);
  if (!Number.isInteger(most) || most < 1) throw new RangeError(`A claim must ask for at least one, got ${most}`);
}

/** What a claim grants when the window has `free` left (claim above). */
export function claimGrant(free: number, most: number): number {
  return free <= 0 ? 0 : Math.min(most, Math.max(1, Math.floor(free / CLAIM_SHARE)));
}
