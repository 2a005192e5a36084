import { Extensions } from '@a2a-js/sdk';
import { LegacyJsonRpcTransportHandler } from '@a2a-js/sdk/compat/v0_3/server';
import {
  A2ARequestHandler,
  JsonRpcTransportHandler,
  ServerCallContextBuilder,
  validateVersion,
} from '@a2a-js/sdk/server';
import type { UserBuilder } from '@a2a-js/sdk/server/express';
import { Logger } from '@nestjs/common';
import type { Request, RequestHandler, Response } from 'express';
import { JsonRpcCode } from '../../platform/errors/json-rpc-error.mapping';
import { requestedVersion } from './a2a-version';

/** The JSON-RPC methods answered with an event stream (v0.3 and v1.0 names): the SDK's express handler serves them. */
const STREAMING_METHODS = new Set(['message/stream', 'tasks/resubscribe', 'SendStreamingMessage', 'SubscribeToTask']);

export interface UnaryJsonRpcOptions {
  requestHandler: A2ARequestHandler;
  userBuilder: UserBuilder;
  contextBuilder: ServerCallContextBuilder;
}

/**
 * An agent's JSON-RPC endpoint for the methods answered with one JSON object (message/send,
 * tasks/get, ListTasks, the push-config methods, …): the request, which the preflight has parsed
 * and checked, goes to the SDK's own transport handler - v0.3's for a request without
 * `A2A-Version: 1.0`, as the SDK's handler decides - and its answer is written as one JSON body.
 * The SDK's express handler (jsonRpcHandler) does the same inside an express Router of its own:
 * route matching, a content-type guard, a second body parser, express's send (ETag, freshness);
 * on the proxy path that was a quarter of the hub's CPU per answer (bench/a2a-send). Requests
 * this does not take go on (next) to the SDK's handler, which answers them as before: streaming
 * methods, bodies that are not a JSON object, content types other than application/json (the
 * SDK refuses those), and any path but the endpoint's own.
 */
export function unaryJsonRpcHandler(options: UnaryJsonRpcOptions): RequestHandler {
  const v1 = new JsonRpcTransportHandler(options.requestHandler);
  const v03 = new LegacyJsonRpcTransportHandler(options.requestHandler);
  const logger = new Logger('A2A JSON-RPC');
  return (req, res, next) => {
    const body: unknown = req.body;
    if (!isUnaryCall(req, body)) return next();
    // The preflight has checked the header and spelt a served version as the SDK compares it (negotiateVersion).
    const version = req.headers['a2a-version'] as string | undefined;
    const legacy = requestedVersion(req) === '0.3';
    void answer(req, res, body, version, legacy).catch((error: unknown) => {
      const mapped = legacy
        ? LegacyJsonRpcTransportHandler.mapToLegacyJSONRPCError(error)
        : JsonRpcTransportHandler.mapToJSONRPCError(error);
      const serverFault = mapped.code === JsonRpcCode.INTERNAL_ERROR;
      if (serverFault) logger.error(`JSON-RPC ${body.method} failed`, (error as Error)?.stack ?? String(error));
      else logger.debug(`JSON-RPC ${body.method}: ${(error as Error)?.message ?? String(error)}`);
      if (res.headersSent) return void (res.writableEnded || res.end());
      writeJson(res, serverFault ? 500 : 200, { jsonrpc: '2.0', id: body.id ?? null, error: mapped });
    });
  };

  async function answer(req: Request, res: Response, body: JsonRpcCall, version: string | undefined, legacy: boolean) {
    const context = options.contextBuilder({
      extensions: Extensions.parseServiceParameter(extensionsHeader(req, legacy)),
      user: await options.userBuilder(req),
      headers: req.headers,
      requestedVersion: version || undefined,
    });
    validateVersion(context.requestedVersion, await options.requestHandler.getAgentCard(), 'JSONRPC');
    const reply = await (legacy ? v03 : v1).handle(body as unknown as Record<string, unknown>, context);
    if (context.activatedExtensions) {
      res.setHeader(legacy ? 'X-A2A-Extensions' : 'A2A-Extensions', Array.from(context.activatedExtensions));
    }
    writeJson(res, 200, reply);
  }
}

interface JsonRpcCall {
  method: string;
  id?: string | number | null;
}

function isUnaryCall(req: Request, body: unknown): body is JsonRpcCall {
  if (req.method !== 'POST' || req.path !== '/') return false;
  const method = (body as { method?: unknown } | undefined)?.method;
  return typeof method === 'string' && !STREAMING_METHODS.has(method) && isPlainJson(req.headers['content-type']);
}

/** application/json, with or without parameters: the one media type the SDK's JSON-RPC handler accepts. */
function isPlainJson(contentType: string | undefined): boolean {
  return contentType !== undefined && contentType.split(';', 1)[0].trim().toLowerCase() === 'application/json';
}

/** The extensions a caller asks for: v0.3 callers may use the older header name. */
function extensionsHeader(req: Request, legacy: boolean): string | undefined {
  const header = legacy
    ? (req.headers['x-a2a-extensions'] ?? req.headers['a2a-extensions'])
    : req.headers['a2a-extensions'];
  return Array.isArray(header) ? header.join(',') : header;
}

/**
 * Writes the answer after the event loop's poll phase (setImmediate), not at once. An answer ready
 * within the callback that read its request - a local agent on the in-process store, with no I/O
 * to wait for - was otherwise written between the reads of the requests that arrived with it: each
 * write woke the client while the hub still had requests to read, and a busy hub spent a third more
 * CPU per answer (bench/README.md, "Answers written after the poll phase"). Answers that waited for
 * I/O (Redis, a remote agent) are ready in a poll callback too and go out together the same way.
 */
function writeJson(res: Response, status: number, value: unknown): void {
  const text = JSON.stringify(value);
  setImmediate(() => {
    if (res.headersSent) return;
    res.writeHead(status, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(text),
    });
    res.end(text);
  });
}
