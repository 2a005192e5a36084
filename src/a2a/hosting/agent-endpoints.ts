import type { RequestHandler } from 'express';

/** `/v1` or `/json` at the start of a path within an agent, as express matches a mount path: any case, then `/`, `?` or the end. */
const MOUNT = /^\/(v1|json)(?=\/|\?|$)/i;

/**
 * An agent's HTTP endpoints: JSON-RPC mounted at `/v1` and HTTP+JSON at `/json`, each a chain of
 * handlers (its preflight, then the SDK's express handler). Served as an express Router serves
 * `router.use('/v1', ...)` - the mount moved from `req.url` to `req.baseUrl` while the chain runs
 * and put back when it passes the request on, an error or a rejected promise passed on - without
 * a Router's layer dispatch on every message (it cost a proxied answer ~5 µs).
 */
export function agentEndpoints(jsonRpc: RequestHandler[], rest: RequestHandler[]): RequestHandler {
  return (req, res, next) => {
    const mount = MOUNT.exec(req.url);
    if (!mount) return next();
    const chain = mount[1].toLowerCase() === 'v1' ? jsonRpc : rest;
    const { url, baseUrl } = req;
    const remainder = url.slice(mount[0].length);
    req.baseUrl = baseUrl + mount[0];
    req.url = remainder.startsWith('/') ? remainder : `/${remainder}`;
    let index = 0;
    const step = (error?: unknown): void => {
      if (error !== undefined || index === chain.length) {
        req.url = url;
        req.baseUrl = baseUrl;
        return next(error);
      }
      try {
        const result: unknown = chain[index++](req, res, step);
        if (result instanceof Promise)
          result.catch((rejected: unknown) => step(rejected ?? new Error('Rejected promise')));
      } catch (thrown) {
        step(thrown);
      }
    };
    step();
  };
}
