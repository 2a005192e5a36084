import type { IncomingMessage } from 'node:http';

/**
 * Whether the request came over https: directly (TLS on the socket), or - with TRUST_PROXY -
 * as the proxy's `X-Forwarded-Proto` says. The one reader of either: the console's Secure cookies
 * and the hub's own URLs in its answers go by it.
 */
export function cameOverHttps(req: IncomingMessage, trustProxy: boolean): boolean {
  if ((req.socket as { encrypted?: boolean } | undefined)?.encrypted) return true;
  if (!trustProxy) return false;
  const forwarded = req.headers['x-forwarded-proto'];
  const first = (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(',')[0]?.trim().toLowerCase();
  return first === 'https';
}
