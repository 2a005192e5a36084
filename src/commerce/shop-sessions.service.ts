import { Inject, Injectable } from '@nestjs/common';
import { randomBytes, randomUUID } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { sha256Hex } from '../platform/crypto/sha256';
import { DataSource, IsNull, Repository } from 'typeorm';
import { AppConfig } from '../platform/config/app-config';
import { DomainError } from '../platform/errors/domain-error';
import { ErrorCode } from '../platform/errors/error-code';
import { ShopSessionEntity } from './entities/shop-session.entity';

/** How many verified session tokens a replica remembers for rate limiting, and for how long. */
const VERIFIED_TOKENS = 10_000;
const VERIFIED_FOR_MS = 5 * 60_000;

export function newToken(prefix: string): string {
  return `${prefix}_${randomBytes(24).toString('base64url')}`;
}

/** Shopping sessions: random tokens, stored hashed, valid for COMMERCE_SESSION_TTL_SECONDS. */
@Injectable()
export class ShopSessionsService {
  private readonly sessions: Repository<ShopSessionEntity>;
  /** Hashes of tokens this replica recently issued or found live (see `verifiedKey`). */
  private readonly verified = new LRUCache<string, true>({ max: VERIFIED_TOKENS, ttl: VERIFIED_FOR_MS });

  constructor(
    @Inject(DataSource) dataSource: DataSource,
    private readonly config: AppConfig,
  ) {
    this.sessions = dataSource.getRepository(ShopSessionEntity);
  }

  get ttlSeconds(): number {
    return this.config.commerce.sessionTtlSeconds;
  }

  async create(): Promise<{ token: string; session: ShopSessionEntity }> {
    const token = newToken('sst');
    const now = new Date();
    const session: ShopSessionEntity = {
      id: randomUUID(),
      tokenHash: sha256Hex(token),
      checkoutTokenHash: null,
      createdAt: now,
      expiresAt: new Date(now.getTime() + this.ttlSeconds * 1000),
      endedAt: null,
    };
    await this.sessions.insert(session);
    this.verified.set(session.tokenHash, true);
    return { token, session };
  }

  /** The live session of a token; UNAUTHENTICATED when it is missing, unknown, ended or expired. */
  async require(token: string | undefined): Promise<ShopSessionEntity> {
    if (!token)
      throw unauthenticated('A session is required: POST /.well-known/agents/api/session, then send its token');
    const tokenHash = sha256Hex(token);
    const session = await this.sessions.findOne({ where: { tokenHash, endedAt: IsNull() } });
    if (!session) throw unauthenticated('Invalid or ended session token');
    if (session.expiresAt.getTime() <= Date.now()) throw unauthenticated('The session has expired; create a new one');
    this.verified.set(tokenHash, true);
    return session;
  }

  /**
   * What the shop's rate limit counts a request by when it carries `token`: its hash, once this
   * replica has seen the token belong to a live session; undefined before (count it by address),
   * so made-up tokens cannot each open a bucket of their own and reach the database unlimited.
   */
  verifiedKey(token: string): string | undefined {
    const tokenHash = sha256Hex(token);
    return this.verified.has(tokenHash) ? tokenHash : undefined;
  }

  /** The session a token names, if it is live; undefined otherwise (for routes where it is optional). */
  async optional(token: string | undefined): Promise<ShopSessionEntity | undefined> {
    return token ? this.require(token).catch(() => undefined) : undefined;
  }

  /** The session with this id if it is live (for callers that keep the id, not the token). */
  async live(id: string): Promise<ShopSessionEntity | undefined> {
    const session = await this.sessions.findOne({ where: { id, endedAt: IsNull() } });
    return session && session.expiresAt.getTime() > Date.now() ? session : undefined;
  }

  async end(session: ShopSessionEntity): Promise<void> {
    await this.sessions.update({ id: session.id }, { endedAt: new Date() });
  }

  /** A new checkout link token for the session (the previous link stops working). */
  async issueCheckoutToken(session: ShopSessionEntity): Promise<string> {
    const token = newToken('chk');
    await this.sessions.update({ id: session.id }, { checkoutTokenHash: sha256Hex(token) });
    return token;
  }

  /** The session behind a checkout link, live or not (the page explains an expired one). */
  byCheckoutToken(token: string): Promise<ShopSessionEntity | null> {
    return this.sessions.findOne({ where: { checkoutTokenHash: sha256Hex(token) } });
  }
}

function unauthenticated(message: string): DomainError {
  return new DomainError(ErrorCode.UNAUTHENTICATED, message);
}
