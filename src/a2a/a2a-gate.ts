import { Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ApiKeyService } from '../platform/auth/api-key.service';
import { PresentedCredentials } from '../platform/auth/presented-credentials';
import type { Principal } from '../platform/auth/principal';
import { attachRequestPrincipal } from '../platform/auth/principal-holder';
import { conversationTracker, RateLimiter } from '../platform/rate-limit/rate-limiter';
import { AgentHost } from './hosting/agent-host';

/**
 * Who may talk to a hosted agent, decided in one place for every way in - the HTTP lane
 * (JSON-RPC and HTTP+JSON, the legacy orchestrator routes, POST /) and gRPC: the API key must
 * hold the `messages` scope (UNAUTHENTICATED / FORBIDDEN), the agent must be hosted (NOT_FOUND),
 * and the request counts against the `conversation` limit of the key and agent (RATE_LIMITED;
 * over HTTP the answer carries X-RateLimit-*).
 */
@Injectable()
export class A2aGate {
  constructor(
    private readonly keys: ApiKeyService,
    private readonly limiter: RateLimiter,
    private readonly host: AgentHost,
    private readonly credentials: PresentedCredentials,
  ) {}

  /** The caller, admitted to `agentId`; `res`, when given, gets the rate-limit headers. */
  async admit(key: string | undefined, agentId: string, res?: Response): Promise<Principal> {
    return this.admitted(await this.keys.authorize(key, ['messages']), agentId, res);
  }

  /**
   * `admit` for an HTTP request: its API key header or console session (PresentedCredentials); the
   * caller is attached to it for the SDK.
   */
  async admitHttp(req: Request, res: Response, agentId: string): Promise<Principal> {
    const principal = await this.admitted(await this.credentials.authorize(req, ['messages'], res), agentId, res);
    attachRequestPrincipal(req, principal);
    return principal;
  }

  private async admitted(principal: Principal, agentId: string, res?: Response): Promise<Principal> {
    this.host.require(agentId);
    await this.limiter.consumeForHttp('conversation', conversationTracker(principal.keyId, agentId), res);
    return principal;
  }
}
