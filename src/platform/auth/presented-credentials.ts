import { Injectable } from '@nestjs/common';
import { timingSafeEqual } from 'node:crypto';
import type { Response } from 'express';
import type { IncomingMessage } from 'node:http';
import { AppConfig } from '../config/app-config';
import { sha256Hex } from '../crypto/sha256';
import { DomainError } from '../errors/domain-error';
import { ErrorCode } from '../errors/error-code';
import { ApiKeyService, requireScopes } from './api-key.service';
import { cameOverHttps } from '../http/request-scheme';
import { clearSessionCookie, CSRF_HEADER, sessionIdOf } from './console-cookie';
import { ConsoleSession, ConsoleSessions } from './console-sessions';
import { keyFromHeaders } from './presented-key';
import type { Principal } from './principal';
import type { Scope } from './scopes';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Who an HTTP caller is, decided once for every HTTP way in (ApiKeyGuard, A2aGate, the task
 * WebSocket): an API key header (`X-Api-Key` / `Authorization: Bearer`) when there is one, else
 * the console's session cookie. Signed in by cookie, a write (POST, PUT, PATCH, DELETE) must carry
 * the session's token in `X-CSRF-Token`, and a WebSocket upgrade must come from the hub's own
 * origin. Scopes are the key's either way.
 */
@Injectable()
export class PresentedCredentials {
  constructor(
    private readonly keys: ApiKeyService,
    private readonly sessions: ConsoleSessions,
    private readonly config: AppConfig,
  ) {}

  /** The caller, if it holds every required scope; `res`, when given, loses a dead session's cookie. */
  async authorize(req: IncomingMessage, required: readonly Scope[], res?: Response): Promise<Principal> {
    const key = keyFromHeaders(req.headers);
    if (key || sessionIdOf(req) === undefined) return this.keys.authorize(key, required);
    return requireScopes((await this.session(req, res)).principal, required);
  }

  /** The request's console session, its CSRF token checked: UNAUTHENTICATED without a live one. */
  async session(req: IncomingMessage, res?: Response): Promise<ConsoleSession> {
    const id = sessionIdOf(req);
    const session = id === undefined ? undefined : await this.sessions.find(id);
    if (!session) {
      if (id !== undefined && res) clearSessionCookie(res, this.overHttps(req));
      throw new DomainError(
        ErrorCode.UNAUTHENTICATED,
        'No console session: it expired, was signed out or its API key was revoked; sign in again',
      );
    }
    if (req.headers.upgrade) requireSameOrigin(req);
    else if (!SAFE_METHODS.has(req.method ?? 'GET')) requireCsrfToken(req, session);
    return session;
  }

  overHttps(req: IncomingMessage): boolean {
    return cameOverHttps(req, this.config.publicEndpoints.trustProxy);
  }
}

function requireCsrfToken(req: IncomingMessage, session: ConsoleSession): void {
  const sent = req.headers[CSRF_HEADER];
  const token = Array.isArray(sent) ? sent[0] : sent;
  if (!token) {
    throw new DomainError(
      ErrorCode.FORBIDDEN,
      'The X-CSRF-Token header is missing: a write signed in by the console cookie must send the csrf_token of its session',
    );
  }
  // Compared as hashes: equal lengths, constant time.
  const equal = timingSafeEqual(Buffer.from(sha256Hex(token)), Buffer.from(sha256Hex(session.csrfToken)));
  if (!equal) {
    throw new DomainError(ErrorCode.FORBIDDEN, "The X-CSRF-Token header is wrong: it is not this session's csrf_token");
  }
}

/** A browser cannot set headers on a WebSocket: signed in by cookie, it must come from the hub's own page. */
function requireSameOrigin(req: IncomingMessage): void {
  const origin = req.headers.origin;
  let originHost: string | undefined;
  try {
    originHost = origin ? new URL(origin).host : undefined;
  } catch {
    originHost = undefined;
  }
  if (!originHost || originHost !== req.headers.host) {
    throw new DomainError(
      ErrorCode.FORBIDDEN,
      'A WebSocket signed in by the console cookie must come from the console itself (its Origin must be this hub)',
    );
  }
}
