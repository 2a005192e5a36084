import { Router, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { agentEndpoints } from './agent-endpoints';

interface Seen {
  endpoint: string;
  url: string;
  baseUrl: string;
}

/** Runs `handler` on a request for `url` under `/api/agents/a`; what each endpoint saw, and what reached `next` (a Router calls it a turn later). */
async function serve(handler: RequestHandler, url: string) {
  const seen: Seen[] = [];
  const req = { url, baseUrl: '/api/agents/a', method: 'POST', headers: {} } as unknown as Request;
  (req as unknown as { seen: Seen[] }).seen = seen;
  let after: { url: string; baseUrl: string; error: unknown } | undefined;
  handler(req, {} as Response, (error?: unknown) => {
    after = { url: req.url, baseUrl: req.baseUrl, error };
  });
  await new Promise((resolve) => setImmediate(resolve));
  return { seen, after };
}

const endpoint =
  (name: string, pass = true): RequestHandler =>
  (req, _res, next: NextFunction) => {
    (req as unknown as { seen: Seen[] }).seen.push({ endpoint: name, url: req.url, baseUrl: req.baseUrl });
    if (pass) next();
  };

const URLS = [
  '/v1',
  '/v1/',
  '/V1',
  '/v1?x=1',
  '/v1/extra',
  '/json',
  '/json/v1/message:send',
  '/json?y',
  '/v1x',
  '/',
  '/js',
];

describe('agentEndpoints', () => {
  it.each(URLS)('mounts %s as an express Router mounts /v1 and /json', async (url) => {
    const router = Router();
    router.use('/v1', endpoint('preflight'), endpoint('jsonrpc'));
    router.use('/json', endpoint('preflight'), endpoint('rest'));
    const ours = agentEndpoints(
      [endpoint('preflight'), endpoint('jsonrpc')],
      [endpoint('preflight'), endpoint('rest')],
    );
    expect(await serve(ours, url)).toEqual(await serve(router, url));
  });

  it('stops where a handler answers, and passes errors on with the URL put back', async () => {
    const answered = await serve(agentEndpoints([endpoint('preflight', false), endpoint('jsonrpc')], []), '/v1');
    expect(answered.seen.map((s) => s.endpoint)).toEqual(['preflight']);
    expect(answered.after).toBeUndefined();

    const failure = new Error('bad body');
    const failing: RequestHandler = (_req, _res, next) => next(failure);
    expect((await serve(agentEndpoints([failing, endpoint('jsonrpc')], []), '/v1?q')).after).toEqual({
      url: '/v1?q',
      baseUrl: '/api/agents/a',
      error: failure,
    });
    const throwing: RequestHandler = () => {
      throw failure;
    };
    expect((await serve(agentEndpoints([throwing], []), '/v1')).after?.error).toBe(failure);
  });

  it('passes on what an async handler rejects with', async () => {
    const failure = new Error('later');
    const rejecting = (() => Promise.reject(failure)) as unknown as RequestHandler;
    expect((await serve(agentEndpoints([rejecting], []), '/v1')).after?.error).toBe(failure);
  });
});
