import { BeforeApplicationShutdown, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DomainError } from '../errors/domain-error';
import { ErrorCode } from '../errors/error-code';
import { EventBus, Subscription } from '../events/event-bus';
import { generateApiKey, hashApiKey, lookupPrefix, sameHash } from './api-key-material';
import { ApiKeyRepository } from './api-key.repository';
import { ApiKeyResponse } from './dto/api-key.response';
import { ApiKeyEntity, ApiKeySource } from './entities/api-key.entity';
import { Principal } from './principal';
import { isScope, Scope } from './scopes';

export interface NewApiKey {
  name: string;
  scopes: Scope[];
  owner?: string;
  expiresAt?: Date;
}

const CACHE_TTL_MS = 5_000;
const CACHE_MAX_ENTRIES = 10_000;
/** Unknown keys are remembered apart, so a flood of made-up keys cannot evict the real ones. */
const UNKNOWN_MAX_ENTRIES = 1_000;
const TOUCH_INTERVAL_MS = 60_000;
const REVOKED_CHANNEL = 'auth.api-key-revoked';

interface CacheEntry {
  principal: Principal | null;
  expiresAt: Date | null;
  cachedAt: number;
}

/**
 * API keys: creation (the key is returned once, only its SHA-256 is kept), verification with a
 * short cache (revocations clear it on every replica through the EventBus), listing, revocation.
 */
@Injectable()
export class ApiKeyService implements OnModuleInit, OnModuleDestroy, BeforeApplicationShutdown {
  private readonly logger = new Logger('ApiKeys');
  private readonly cache = new Map<string, CacheEntry>();
  private readonly byId = new Map<string, CacheEntry>();
  private readonly unknown = new Map<string, number>();
  private readonly lastTouched = new Map<string, number>();
  private readonly pendingTouches = new Set<Promise<void>>();
  private revocations?: Subscription;

  constructor(
    private readonly keys: ApiKeyRepository,
    private readonly events: EventBus,
  ) {}

  async onModuleInit(): Promise<void> {
    this.revocations = await this.events.subscribe(REVOKED_CHANNEL, () => this.forgetAll());
  }

  async onModuleDestroy(): Promise<void> {
    await this.revocations?.unsubscribe().catch(() => undefined);
  }

  /** Lets last-use writes finish before the pools close. */
  async beforeApplicationShutdown(): Promise<void> {
    await Promise.all(this.pendingTouches);
  }

  async create(input: NewApiKey, source: ApiKeySource = 'created'): Promise<{ key: string; record: ApiKeyResponse }> {
    if (input.expiresAt && input.expiresAt.getTime() <= Date.now()) {
      throw DomainError.validation([{ field: 'expires_at', reason: 'must be in the future' }]);
    }
    const key = generateApiKey();
    const entity = this.entity(key, input, source);
    await this.keys.insert(entity);
    return { key, record: ApiKeyResponse.from(entity) };
  }

  /**
   * The caller behind a presented key, if it holds every required scope: UNAUTHENTICATED when
   * the key is missing, unknown, revoked or expired; FORBIDDEN when a scope is missing.
   */
  async authorize(key: string | undefined, required: readonly Scope[] = []): Promise<Principal> {
    if (!key) {
      throw new DomainError(
        ErrorCode.UNAUTHENTICATED,
        'An API key is required: send it as X-Api-Key or Authorization: Bearer',
      );
    }
    return requireScopes(await this.authenticate(key), required);
  }

  /** The caller behind `key`; UNAUTHENTICATED if it is unknown, revoked or expired. */
  async authenticate(key: string): Promise<Principal> {
    const hash = hashApiKey(key);
    const now = Date.now();
    let entry = this.cache.get(hash);
    if (!entry || now - entry.cachedAt > CACHE_TTL_MS) {
      const refusedAt = this.unknown.get(hash);
      if (refusedAt !== undefined && now - refusedAt <= CACHE_TTL_MS) throw invalidKey();
      entry = await this.lookup(key, hash, now);
      if (!entry.principal) {
        if (this.unknown.size >= UNKNOWN_MAX_ENTRIES) this.unknown.delete(this.unknown.keys().next().value!);
        this.unknown.set(hash, now);
        throw invalidKey();
      }
      this.remember(hash, entry);
    }
    if (!entry.principal || (entry.expiresAt && entry.expiresAt.getTime() <= now)) throw invalidKey();
    this.touch(entry.principal.keyId, now);
    return entry.principal;
  }

  /**
   * The caller behind the key with this id (a console session's key), cached like `authenticate`;
   * UNAUTHENTICATED if it is unknown, revoked or expired.
   */
  async authenticateId(id: string): Promise<Principal> {
    const now = Date.now();
    let entry = this.byId.get(id);
    if (!entry || now - entry.cachedAt > CACHE_TTL_MS) {
      const found = await this.keys.findById(id);
      entry = {
        principal:
          found && !found.revokedAt
            ? new Principal(found.id, found.name, found.owner, found.scopes.filter(isScope))
            : null,
        expiresAt: found?.expiresAt ?? null,
        cachedAt: now,
      };
      if (this.byId.size >= CACHE_MAX_ENTRIES) this.byId.delete(this.byId.keys().next().value!);
      this.byId.set(id, entry);
    }
    if (!entry.principal || (entry.expiresAt && entry.expiresAt.getTime() <= now)) throw invalidKey();
    this.touch(entry.principal.keyId, now);
    return entry.principal;
  }

  async list(): Promise<ApiKeyResponse[]> {
    const now = new Date();
    return (await this.keys.list()).map((k) => ApiKeyResponse.from(k, now));
  }

  async get(id: string): Promise<ApiKeyResponse> {
    const entity = await this.keys.findById(id);
    if (!entity) throw DomainError.notFound('API key', id);
    return ApiKeyResponse.from(entity);
  }

  /** Revokes at once on every replica. Revoking a revoked key is a no-op that returns it. */
  async revoke(id: string): Promise<ApiKeyResponse> {
    if (!(await this.keys.findById(id))) throw DomainError.notFound('API key', id);
    await this.keys.revoke(id, new Date());
    this.forgetAll();
    await this.events.publish(REVOKED_CHANNEL, { id }).catch((error: Error) => {
      this.logger.warn(`Could not tell other replicas about the revocation (they notice within 5 s): ${error.message}`);
    });
    return this.get(id);
  }

  /**
   * Makes sure an admin can get in: registers ADMIN_API_KEY (revoking a previous one that
   * changed), or - when no usable admin key exists at all - creates one and returns it so the
   * caller can print it once.
   */
  async ensureAdminKey(adminApiKey: string | undefined): Promise<string | undefined> {
    return this.keys.withBootstrapLock(async (keys) => {
      const now = new Date();
      if (adminApiKey) {
        const hash = hashApiKey(adminApiKey);
        const current = await keys.findUnrevokedBySource('env');
        if (current.some((k) => sameHash(k.keyHash, hash))) return undefined;
        for (const old of current) await keys.revoke(old.id, now);
        await keys.insert(
          this.entity(adminApiKey, { name: 'ADMIN_API_KEY', scopes: ['admin'], owner: 'admin' }, 'env'),
        );
        this.logger.log(
          current.length ? 'ADMIN_API_KEY changed: the previous one is revoked' : 'ADMIN_API_KEY registered',
        );
        return undefined;
      }
      if (await keys.hasUsableAdminKey(now)) return undefined;
      const key = generateApiKey();
      await keys.insert(
        this.entity(key, { name: 'first-start admin', scopes: ['admin'], owner: 'admin' }, 'first-start'),
      );
      return key;
    });
  }

  private entity(key: string, input: NewApiKey, source: ApiKeySource): ApiKeyEntity {
    const id = randomUUID();
    return Object.assign(new ApiKeyEntity(), {
      id,
      name: input.name,
      // A name is a label for people; without an explicit owner a key owns its data alone.
      owner: input.owner ?? id,
      lookupPrefix: lookupPrefix(key),
      keyHash: hashApiKey(key),
      scopes: [...new Set(input.scopes)],
      source,
      createdAt: new Date(),
      expiresAt: input.expiresAt ?? null,
      revokedAt: null,
      lastUsedAt: null,
    });
  }

  private async lookup(key: string, hash: string, now: number): Promise<CacheEntry> {
    const candidates = await this.keys.findUnrevokedByPrefix(lookupPrefix(key));
    const match = candidates.find((c) => sameHash(c.keyHash, hash));
    if (!match) return { principal: null, expiresAt: null, cachedAt: now };
    const scopes = match.scopes.filter(isScope);
    return {
      principal: new Principal(match.id, match.name, match.owner, scopes),
      expiresAt: match.expiresAt,
      cachedAt: now,
    };
  }

  private forgetAll(): void {
    this.cache.clear();
    this.byId.clear();
  }

  private remember(hash: string, entry: CacheEntry): void {
    if (this.cache.size >= CACHE_MAX_ENTRIES) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(hash, entry);
  }

  /** Records last use at most once a minute per key, off the request path. */
  private touch(keyId: string, now: number): void {
    if (now - (this.lastTouched.get(keyId) ?? 0) < TOUCH_INTERVAL_MS) return;
    this.lastTouched.set(keyId, now);
    const touch = this.keys
      .touchLastUsed(keyId, new Date(now))
      .catch((error: Error) => this.logger.warn(`Could not record last use of key ${keyId}: ${error.message}`))
      .finally(() => this.pendingTouches.delete(touch));
    this.pendingTouches.add(touch);
  }
}

function invalidKey(): DomainError {
  return new DomainError(ErrorCode.UNAUTHENTICATED, 'Invalid API key: it is unknown, expired or revoked');
}

/** `principal`, if it holds every required scope (admin holds all); FORBIDDEN naming the missing ones. */
export function requireScopes(principal: Principal, required: readonly Scope[]): Principal {
  const missing = required.filter((scope) => !principal.has(scope));
  if (missing.length > 0) {
    throw new DomainError(ErrorCode.FORBIDDEN, `This API key lacks the scope ${missing.join(', ')}`, {
      details: { required, missing },
    });
  }
  return principal;
}
