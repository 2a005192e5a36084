import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Pool } from 'undici';
import { listen, Listening } from './listener';

/**
 * The floor of proxying on this machine: the least a Node program that relays A2A `message/send`
 * does - node:http in, undici out over kept-alive connections, the request and the answer parsed
 * and given other ids (the upstream's context is not the client's, as in any proxy that keeps its
 * own tasks) - and nothing else: no authentication, no limits, no records, no SDK. The hub's proxy
 * measured against it is what the hub costs beyond any Node proxy; against the agent alone, what
 * two HTTP hops cost on two cores.
 */
export type BareRelay = Listening;

export async function startBareRelay(upstream: string, host = '127.0.0.1'): Promise<BareRelay> {
  const pool = new Pool(upstream, { connections: 64, pipelining: 1 });
  const listening = await listen((req, res) => {
    relay(pool, req, res).catch((error: Error) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(error.message);
    });
  }, host);
  listening.server.keepAliveTimeout = 60_000;
  return {
    ...listening,
    close: async () => {
      await listening.close();
      await pool.close();
    },
  };
}

interface JsonRpc {
  id?: unknown;
  params?: { message?: { contextId?: string; taskId?: string } };
  result?: { id?: string; contextId?: string; kind?: string };
}

async function relay(pool: Pool, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const request = JSON.parse(await bodyOf(req)) as JsonRpc;
  const message = request.params?.message;
  if (message) {
    delete message.contextId;
    delete message.taskId;
  }
  const version = req.headers['a2a-version'];
  const upstream = await pool.request({
    path: req.url ?? '/',
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(typeof version === 'string' ? { 'a2a-version': version } : {}) },
    body: JSON.stringify(request),
  });
  const answer = JSON.parse(await upstream.body.text()) as JsonRpc;
  const result = answer.result;
  if (result?.contextId) result.contextId = randomUUID();
  if (result?.kind === 'task' && result.id) result.id = randomUUID();
  const body = JSON.stringify(answer);
  res.writeHead(upstream.statusCode, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
  });
  res.end(body);
}

function bodyOf(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.once('error', reject);
    req.once('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}
