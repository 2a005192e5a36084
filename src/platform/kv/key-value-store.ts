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

export interface Counter {
  /** The count after this increment. */
  count: number;
  /** Milliseconds until the window (and the count) expires. */
  ttlMs: number;
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
   * Adds one to a counter. The first increment starts a window of `windowMs`; the counter
   * disappears when the window ends (a fixed window, as rate limits need).
   */
  abstract increment(key: string, windowMs: number): Promise<Counter>;

  /** The keys flagged in `set` at or before `before` (ms since the epoch), oldest first, at most `limit`. */
  abstract flagged(set: string, before: number, limit: number): Promise<Flag[]>;

  /** Clears each key's flag in `set` if it was set at or before `upTo` (a newer flag stays). */
  abstract unflag(set: string, flags: { key: string; upTo: number }[]): Promise<void>;

  /** Throws if the backend is unreachable; for health checks. */
  abstract ping(): Promise<void>;

  /** Resolves once the writes started so far are on their way to the store (in process: already done). */
  protected async sent(): Promise<void> {}
}

/** Both adapters reject the same bad TTLs, so code that works on one works on the other. */
export function assertTtl(ttlMs: number): void {
  if (!Number.isInteger(ttlMs) || ttlMs <= 0)
    throw new RangeError(`TTL must be a positive integer of ms, got ${ttlMs}`);
}
