import { Injectable } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { ApiKeyService } from '../../platform/auth/api-key.service';
import { keyFromHeaders } from '../../platform/auth/presented-key';
import { attachRequestPrincipal } from '../../platform/auth/principal-holder';
import { DomainError } from '../../platform/errors/domain-error';
import { ErrorCode } from '../../platform/errors/error-code';
import { HttpErrorResponder } from '../../platform/errors/http-error.responder';
import { labelRoute } from '../../platform/metrics/http-metrics';
import { conversationTracker, RateLimiter } from '../../platform/rate-limit/rate-limiter';
import { AgentHost } from '../hosting/agent-host';

/** `/api/agents/{id}/v1` (JSON-RPC) or `/api/agents/{id}/json[/...]` (HTTP+JSON), as express would match them. */
const AGENT_ROUTE = /^(\/api\/agents\/([^/?]+))(\/v1\/?|\/json(?:\/[^?]*)?)(\?.*)?$/i;

export interface AgentRoute {
  agentId: string;
  /** Where the agent's endpoints are mounted, as the client sent it: `/api/agents/{id as sent}`. */
  base: string;
  /** The path within the agent (`/v1`, `/json/...`) and the query string. */
  rest: string;
  /** The route pattern requests are counted under. */
  pattern: string;
}

/** The A2A endpoint a request URL addresses, if any; an id that is not valid percent-encoding is refused. */
export function agentRouteOf(url: string): AgentRoute | undefined {
  const match = AGENT_ROUTE.exec(url);
  if (!match) return undefined;
  const [, base, rawId, path, query = ''] = match;
  let agentId: string;
  try {
    agentId = decodeURIComponent(rawId);
  } catch {
    throw new DomainError(ErrorCode.INVALID_REQUEST, 'The agent id in the path is not valid percent-encoding');
  }
  const jsonRpc = path.toLowerCase().startsWith('/v1');
  return {
    agentId,
    base,
    rest: `${jsonRpc ? '/v1' : path}${query}`,
    pattern: jsonRpc ? '/api/agents/:id/v1' : '/api/agents/:id/json',
  };
}

/**
 * Serves the A2A endpoints of every hosted agent - JSON-RPC at /api/agents/{id}/v1, HTTP+JSON
 * under /api/agents/{id}/json - ahead of Nest's router (bootstrap mounts it). They carry every
 * message of every conversation, so they skip Nest's per-request pipeline (matching against
 * every route, guards and metadata looked up by reflection, interceptors, pipes) and do what its
 * guards would, with the same services: the API key must hold the `messages` scope, the
 * `conversation` rate limit counts the request per key and agent (X-RateLimit-* on every answer),
 * and errors are written as on any other route (JSON-RPC error objects on /v1). Then the request
 * goes to the agent's own SDK handlers (AgentHost). bench/a2a-send measures what this saves.
 */
@Injectable()
export class A2aHttpLane {
  constructor(
    private readonly host: AgentHost,
    private readonly keys: ApiKeyService,
    private readonly limiter: RateLimiter,
    private readonly errors: HttpErrorResponder,
  ) {}

  readonly middleware = (req: Request, res: Response, next: NextFunction): void => {
    let route: AgentRoute | undefined;
    try {
      route = agentRouteOf(req.url);
    } catch (error) {
      return this.errors.reply(error, req, res);
    }
    if (!route) return next();
    labelRoute(req, route.pattern);
    this.serve(route, req, res).catch((error: unknown) => this.errors.reply(error, req, res));
  };

  private async serve(route: AgentRoute, req: Request, res: Response): Promise<void> {
    const principal = await this.keys.authorize(keyFromHeaders(req.headers), ['messages']);
    attachRequestPrincipal(req, principal);
    await this.limiter.consumeForHttp('conversation', conversationTracker(principal.keyId, route.agentId), res);
    this.host.dispatchTo(route.agentId, route.base, route.rest, req, res, (error) =>
      this.errors.reply(error, req, res),
    );
  }
}
