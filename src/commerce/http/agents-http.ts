import type { Request, Response } from 'express';
import type { DomainError } from '../../platform/errors/domain-error';
import { httpStatusFor } from '../../platform/errors/http-error.mapping';
import { AGENTS_API_BASE } from './agents-api.routes';

/**
 * The discovery documents: agents.json and agents.txt under /.well-known/, and at the root where
 * clients look next (not served there: a 404, but one with the site's headers and envelope).
 */
const DISCOVERY_PATH = /^\/(\.well-known\/)?agents\.(json|txt)\/?$/;

/** The interaction API (agents-api.routes.ts). */
const API_PREFIX = `/${AGENTS_API_BASE}`;

/** Whether a request is the agents.json site's: a discovery document or the interaction API. */
export function isAgentsSite(req: Pick<Request, 'originalUrl'>): boolean {
  const path = pathOf(req);
  return DISCOVERY_PATH.test(path) || path === API_PREFIX || path.startsWith(`${API_PREFIX}/`);
}

export function isDiscoveryDocument(req: Pick<Request, 'originalUrl'>): boolean {
  return DISCOVERY_PATH.test(pathOf(req));
}

/** originalUrl, not path: inside mounted middleware express rewrites req.path. */
function pathOf(req: Pick<Request, 'originalUrl'>): string {
  return req.originalUrl.split('?')[0];
}

/** The headers every agents.json response carries, errors and preflights included. */
export function setAgentsHeaders(res: Response): void {
  res.setHeader('Link', '</.well-known/agents.json>; rel="agents"');
  res.setHeader('Access-Control-Allow-Origin', '*');
  res.setHeader('Access-Control-Allow-Methods', 'GET, POST, PUT, PATCH, DELETE, OPTIONS');
  res.setHeader('Access-Control-Allow-Headers', 'Content-Type, Authorization, X-Session-Token, X-Agent-Session');
  res.setHeader(
    'Access-Control-Expose-Headers',
    'Link, Retry-After, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset',
  );
}

/** `{"ok": false, "error": "<human-readable>"}` with the error's status. */
export function writeAgentsError(error: DomainError, res: Response): void {
  setAgentsHeaders(res);
  const status: number = httpStatusFor(error.code);
  res
    .status(status)
    .type('application/json; charset=utf-8')
    .send(JSON.stringify({ ok: false, error: status >= 500 ? 'Internal server error' : error.message }));
}

/** The session token an agent sends: Authorization: Bearer, X-Session-Token or X-Agent-Session. */
export function sessionTokenOf(req: Request): string | undefined {
  const bearer = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
  const header = (name: string) => {
    const value = req.headers[name];
    return (Array.isArray(value) ? value[0] : value)?.trim() || undefined;
  };
  return bearer ?? header('x-session-token') ?? header('x-agent-session');
}
