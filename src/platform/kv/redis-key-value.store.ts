import { createHash } from 'node:crypto';
import { ErrorReply } from 'redis';
import { RedisClient, RedisConnection } from '../redis/redis-connection';
import { newEtag } from './etag';
import {
  assertBucketRule,
  assertTtl,
  CompareAndSetResult,
  assertClaim,
  Claim,
  CLAIM_SHARE,
  Flag,
  KeyValueStore,
  StoredValue,
  TokenBucketRule,
  TokenTake,
  WriteOptions,
} from './key-value-store';

/** Each entry is a hash {v: value, e: etag}; scripts keep value, etag and expiry consistent. */
/** KEYS[2], when given, is a flag set: the write adds ARGV (the member, then the score) to it. */
const SET = `
redis.call('HSET', KEYS[1], 'v', ARGV[1], 'e', ARGV[2])
if ARGV[3] ~= '' then redis.call('PEXPIRE', KEYS[1], ARGV[3]) else redis.call('PERSIST', KEYS[1]) end
if KEYS[2] then redis.call('ZADD', KEYS[2], ARGV[5], ARGV[4]) end
return 1`;

const COMPARE_AND_SET = `
local current = redis.call('HGET', KEYS[1], 'e')
local expected = ARGV[1]
if (current == false and expected ~= '') or (current ~= false and current ~= expected) then
  if current == false then return {0} end
  return {0, redis.call('HGET', KEYS[1], 'v'), current}
end
redis.call('HSET', KEYS[1], 'v', ARGV[2], 'e', ARGV[3])
if ARGV[4] ~= '' then redis.call('PEXPIRE', KEYS[1], ARGV[4]) else redis.call('PERSIST', KEYS[1]) end
if KEYS[2] then redis.call('ZADD', KEYS[2], ARGV[6], ARGV[5]) end
return {1}`;

const GET_AND_RENEW = `
local entry = redis.call('HMGET', KEYS[1], 'v', 'e')
if entry[1] and entry[2] then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return entry`;

/**
 * claim (key-value-store.ts): ARGV the window in ms, the limit, the most asked, CLAIM_SHARE, the
 * etag of a write. What it grants is claimGrant's rule.
 */
const CLAIM = `
local limit, most, share = tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
local ttl = redis.call('PTTL', KEYS[1])
local count = 0
if ttl ~= -2 then count = tonumber(redis.call('HGET', KEYS[1], 'v')) or 0 end
local granted = 0
if limit > count then granted = math.min(most, math.max(1, math.floor((limit - count) / share))) end
if ttl == -2 or granted > 0 then redis.call('HSET', KEYS[1], 'v', count + granted, 'e', ARGV[5]) end
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {count + granted, granted, ttl}`;

/**
 * takeFromBucket (key-value-store.ts) in one step, on Redis's clock: ARGV capacity, refill per
 * second, the etag of a write. The state is the same JSON the in-process adapter stores.
 */
const TAKE_TOKEN = `
local capacity = tonumber(ARGV[1])
local perMs = tonumber(ARGV[2]) / 1000
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
local tokens, at = capacity, now
local stored = redis.call('HGET', KEYS[1], 'v')
if stored then
  local ok, state = pcall(cjson.decode, stored)
  if ok and type(state) == 'table' and type(state.tokens) == 'number' and type(state.at) == 'number' then
    tokens, at = state.tokens, state.at
  end
end
tokens = math.min(capacity, tokens + math.max(0, now - at) * perMs)
if tokens < 1 then
  return {0, string.format('%.17g', tokens), math.ceil((1 - tokens) / perMs), math.ceil((capacity - tokens) / perMs)}
end
tokens = tokens - 1
local fullIn = math.ceil((capacity - tokens) / perMs)
redis.call('HSET', KEYS[1], 'v', string.format('{"tokens":%.17g,"at":%d}', tokens, now), 'e', ARGV[3])
redis.call('PEXPIRE', KEYS[1], fullIn)
return {1, string.format('%.17g', tokens), 0, fullIn}`;

class Script {
  readonly sha: string;
  constructor(readonly source: string) {
    this.sha = createHash('sha1').update(source).digest('hex');
  }

  async run(client: RedisClient, keys: string[], args: string[]): Promise<unknown> {
    try {
      return await client.evalSha(this.sha, { keys, arguments: args });
    } catch (error) {
      if (!(error instanceof ErrorReply) || !error.message.startsWith('NOSCRIPT')) throw error;
      return client.eval(this.source, { keys, arguments: args });
    }
  }
}

/** Removes each member (ARGV pairs: member, then the latest score to remove) whose score is no later. */
const UNFLAG = `
for i = 1, #ARGV, 2 do
  local score = redis.call('ZSCORE', KEYS[1], ARGV[i])
  if score and tonumber(score) <= tonumber(ARGV[i + 1]) then redis.call('ZREM', KEYS[1], ARGV[i]) end
end
return 1`;

const scripts = {
  set: new Script(SET),
  cas: new Script(COMPARE_AND_SET),
  claim: new Script(CLAIM),
  getAndRenew: new Script(GET_AND_RENEW),
  unflag: new Script(UNFLAG),
  takeToken: new Script(TAKE_TOKEN),
};

/** Redis adapter: atomic through Lua scripts, shared by every replica. */
export class RedisKeyValueStore extends KeyValueStore {
  readonly kind = 'redis' as const;

  constructor(
    private readonly redis: RedisConnection,
    private readonly prefix: string,
  ) {
    super();
  }

  async get(key: string): Promise<StoredValue | null> {
    const entry = await this.redis.run((c) => c.hmGet(this.key(key), ['v', 'e']));
    const [value, etag] = entry;
    return value === null || etag === null ? null : { value, etag };
  }

  async getAndRenew(key: string, ttlMs: number): Promise<StoredValue | null> {
    assertTtl(ttlMs);
    const [value, etag] = (await this.redis.run((c) =>
      scripts.getAndRenew.run(c, [this.key(key)], [String(ttlMs)]),
    )) as [string | null, string | null];
    return value === null || etag === null ? null : { value, etag };
  }

  async set(key: string, value: string, options: WriteOptions = {}): Promise<string> {
    const ttl = ttlArg(options);
    const etag = newEtag();
    const [keys, flag] = this.flagArgs(key, options);
    await this.redis.run((c) => scripts.set.run(c, keys, [value, etag, ttl, ...flag]));
    return etag;
  }

  async delete(key: string): Promise<boolean> {
    return (await this.redis.run((c) => c.del(this.key(key)))) > 0;
  }

  async compareAndSet(
    key: string,
    expectedEtag: string | null,
    value: string,
    options: WriteOptions = {},
  ): Promise<CompareAndSetResult> {
    const ttl = ttlArg(options);
    const etag = newEtag();
    const [keys, flag] = this.flagArgs(key, options);
    const reply = (await this.redis.run((c) =>
      scripts.cas.run(c, keys, [expectedEtag ?? '', value, etag, ttl, ...flag]),
    )) as [number, string?, string?];
    if (reply[0] === 1) return { ok: true, etag };
    return { ok: false, current: reply.length === 3 ? { value: reply[1]!, etag: reply[2]! } : null };
  }

  async claim(key: string, windowMs: number, limit: number, most: number): Promise<Claim> {
    assertClaim(windowMs, limit, most);
    const args = [String(windowMs), String(limit), String(most), String(CLAIM_SHARE), newEtag()];
    const [count, granted, ttlMs] = (await this.redis.run((c) => scripts.claim.run(c, [this.key(key)], args))) as [
      number,
      number,
      number,
    ];
    return { count, granted, ttlMs };
  }

  async takeToken(key: string, rule: TokenBucketRule): Promise<TokenTake> {
    assertBucketRule(rule);
    const [allowed, tokens, retryAfterMs, fullInMs] = (await this.redis.run((c) =>
      scripts.takeToken.run(c, [this.key(key)], [String(rule.capacity), String(rule.refillPerSecond), newEtag()]),
    )) as [number, string, number, number];
    return { allowed: allowed === 1, tokens: Number(tokens), retryAfterMs, fullInMs };
  }

  async flagged(set: string, before: number, limit: number): Promise<Flag[]> {
    const members = await this.redis.run((c) =>
      c.zRangeByScoreWithScores(this.flagSet(set), '-inf', before, { LIMIT: { offset: 0, count: limit } }),
    );
    return members.map(({ value, score }) => ({ key: value, at: score }));
  }

  async unflag(set: string, flags: { key: string; upTo: number }[]): Promise<void> {
    if (flags.length === 0) return;
    const args = flags.flatMap(({ key, upTo }) => [key, String(upTo)]);
    await this.redis.run((c) => scripts.unflag.run(c, [this.flagSet(set)], args));
  }

  async ping(): Promise<void> {
    await this.redis.run((c) => c.ping());
  }

  /**
   * node-redis writes queued commands to the socket on the next turn of the event loop: past it,
   * they are on the connection, ahead of anything the process sends afterwards.
   */
  protected override async sent(): Promise<void> {
    await new Promise((resolve) => setImmediate(resolve));
  }

  private key(key: string): string {
    return `${this.prefix}kv:${key}`;
  }

  private flagSet(set: string): string {
    return `${this.prefix}flags:${set}`;
  }

  /** The script's keys (the value's, and the flag set's if any) and the flag's arguments. */
  private flagArgs(key: string, options: WriteOptions): [string[], string[]] {
    const flag = options.flag;
    if (!flag) return [[this.key(key)], []];
    return [
      [this.key(key), this.flagSet(flag.set)],
      [key, String(flag.at)],
    ];
  }
}

function ttlArg(options: WriteOptions): string {
  if (options.ttlMs === undefined) return '';
  assertTtl(options.ttlMs);
  return String(options.ttlMs);
}
