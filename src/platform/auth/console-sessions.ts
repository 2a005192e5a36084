import { Injectable } from '@nestjs/common';
import { createHmac, randomBytes } from 'node:crypto';
import { AppConfig } from '../config/app-config';
import { sha256Hex } from '../crypto/sha256';
import { DomainError } from '../errors/domain-error';
import { ErrorCode } from '../errors/error-code';
import { KeyValueStore } from '../kv/key-value-store';
import { ApiKeyService } from './api-key.service';
import type { Principal } from './principal';

/** A signed-in console: the key it acts as (with that key's current scopes) and its CSRF token. */
export interface ConsoleSession {
  /** The secret session id from the cookie; never logged, stored or shown. */
  readonly id: string;
  readonly principal: Principal;
  readonly csrfToken: string;
  readonly createdAt: Date;
  readonly expiresAt: Date;
}

/** What the key-value store keeps, under a SHA-256 of the session id: nothing secret. */
interface StoredSession {
  keyId: string;
  scopes: string[];
  createdAt: string;
  expiresAt: string;
}

/** 256 random bits, base64url. */
const SESSION_ID = /^[A-Za-z0-9_-]{43}$/;
const NAMESPACE = 'console-session:';

/**
 * Console sign-ins, kept in the KeyValueStore (Redis when configured, so every replica sees them)
 * under a SHA-256 of their id for CONSOLE_SESSION_TTL_MINUTES. A session re-checks its key on
 * every use: revoking or expiring the key ends the session. The CSRF token is derived from the
 * session id (HMAC), so it is never stored either.
 */
@Injectable()
export class ConsoleSessions {
  private readonly ttlMs: number;

  constructor(
    private readonly kv: KeyValueStore,
    private readonly keys: ApiKeyService,
    config: AppConfig,
  ) {
    this.ttlMs = config.console.sessionTtlMinutes * 60_000;
  }

  get ttlSeconds(): number {
    return this.ttlMs / 1000;
  }

  /** Signs in with an API key: UNAUTHENTICATED when it is unknown, revoked or expired. */
  async create(apiKey: string): Promise<ConsoleSession> {
    const principal = await this.keys.authenticate(apiKey);
    const id = randomBytes(32).toString('base64url');
    const createdAt = new Date();
    const expiresAt = new Date(createdAt.getTime() + this.ttlMs);
    const stored: StoredSession = {
      keyId: principal.keyId,
      scopes: [...principal.scopes],
      createdAt: createdAt.toISOString(),
      expiresAt: expiresAt.toISOString(),
    };
    await this.kv.set(storageKey(id), JSON.stringify(stored), { ttlMs: this.ttlMs });
    return { id, principal, csrfToken: csrfTokenOf(id), createdAt, expiresAt };
  }

  /** The live session with this id; undefined when there is none (a revoked key's session is deleted). */
  async find(id: string): Promise<ConsoleSession | undefined> {
    if (!SESSION_ID.test(id)) return undefined;
    const found = await this.kv.get(storageKey(id));
    const stored = found ? parse(found.value) : undefined;
    if (!stored || Date.parse(stored.expiresAt) <= Date.now()) return undefined;
    let principal: Principal;
    try {
      principal = await this.keys.authenticateId(stored.keyId);
    } catch (error) {
      if (!(error instanceof DomainError && error.code === ErrorCode.UNAUTHENTICATED)) throw error;
      await this.kv.delete(storageKey(id));
      return undefined;
    }
    const createdAt = new Date(stored.createdAt);
    return { id, principal, csrfToken: csrfTokenOf(id), createdAt, expiresAt: new Date(stored.expiresAt) };
  }

  async end(session: ConsoleSession): Promise<void> {
    await this.kv.delete(storageKey(session.id));
  }
}

/** Where a session is kept: a SHA-256 of its id, so the store never holds a usable id. */
export function storageKey(id: string): string {
  return `${NAMESPACE}${sha256Hex(id)}`;
}

/** The session's CSRF token: derived from its id, so only the holder of the cookie can know it. */
export function csrfTokenOf(id: string): string {
  return createHmac('sha256', id).update('switchboard console csrf token').digest('base64url');
}

function parse(value: string): StoredSession | undefined {
  try {
    const stored = JSON.parse(value) as Partial<StoredSession> | null;
    if (typeof stored?.keyId !== 'string' || typeof stored.expiresAt !== 'string') return undefined;
    return stored as StoredSession;
  } catch {
    return undefined;
  }
}
