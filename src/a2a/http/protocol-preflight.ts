import { isLegacyJsonRpcMethod, isV1JsonRpcMethod } from '@a2a-js/sdk/compat/v0_3';
import { toLegacyHTTPError } from '@a2a-js/sdk/compat/v0_3/server';
import { RequestMalformedError, restStatusFor, toRestErrorBody } from '@a2a-js/sdk/errors';
import type { Request, RequestHandler, Response } from 'express';
import { ErrorCode } from '../../platform/errors/error-code';
import { httpStatusFor } from '../../platform/errors/http-error.mapping';
import { isTransportLevel, JsonRpcCode, jsonRpcCodeFor } from '../../platform/errors/json-rpc-error.mapping';
import { envelopeProblem, idOf, jsonRpcError, JsonRpcReply } from '../../platform/json-rpc/json-rpc';
import { toDomainError } from '../../platform/errors/to-domain-error';
import { tolerateFieldClients } from './field-client-tolerance';
import { paramsProblem } from './json-rpc-params';

/** The A2A version a request asks for: the A2A-Version header, absent meaning 0.3. */
export function requestedVersion(req: Request): '0.3' | '1.0' {
  const header = req.headers['a2a-version'];
  const value = Array.isArray(header) ? header[0] : header;
  return value?.trim().startsWith('1') ? '1.0' : '0.3';
}

/**
 * What runs before the SDK's JSON-RPC handler: our body limit, and the checks the SDK gets wrong
 * or too strict. Malformed JSON → -32700; a body that is not a JSON-RPC request object (array,
 * wrong `jsonrpc`, non-string method, bad id) → -32600 (the SDK answers -32602 on v1.0); an
 * unknown method → -32601 (likewise); then field-client tolerance (see field-client-tolerance.ts)
 * and the params' types (-32602 instead of the SDK's internal error for, say, a numeric task id).
 * One middleware, not one per step: each express layer costs every message its dispatch.
 */
export function jsonRpcPreflight(parse: RequestHandler): RequestHandler {
  return (req, res, next) =>
    parse(req, res, (error?: unknown) => {
      if (error) return answerJsonRpcParseError(error, req, res);
      const problem = jsonRpcProblem(req);
      if (problem) res.status(200).json(problem);
      else next();
    });
}

/** A body that could not be read: -32700 when it is not JSON, else the code of what refused it (a limit, its text). */
function answerJsonRpcParseError(error: unknown, req: Request, res: Response): void {
  const domain = toDomainError(error);
  const status = isTransportLevel(domain.code) ? httpStatusFor(domain.code) : 200;
  const malformed = domain.code === ErrorCode.MALFORMED_REQUEST;
  // The body is parsed when only its text was refused: the answer then carries its id.
  const id = req.body === undefined ? null : idOf(req.body);
  res.status(status).json(jsonRpcError(id, jsonRpcCodeFor(domain.code), malformed ? 'Parse error' : domain.message));
}

/** The JSON-RPC error a parsed request gets before the SDK sees it, if any; fixes what field clients get wrong. */
function jsonRpcProblem(req: Request): JsonRpcReply | undefined {
  if (req.body === undefined) return undefined; // not a JSON body: the SDK answers it
  const body: unknown = req.body;
  const problem = Array.isArray(body) ? 'batch requests are not supported' : envelopeProblem(body);
  if (problem) return jsonRpcError(idOf(body), JsonRpcCode.INVALID_REQUEST, `Invalid Request: ${problem}`);
  const request = body as Record<string, unknown>;
  const method = request.method as string;
  const known = requestedVersion(req) === '1.0' ? isV1JsonRpcMethod(method) : isLegacyJsonRpcMethod(method);
  if (!known) return jsonRpcError(idOf(body), JsonRpcCode.METHOD_NOT_FOUND, `Method not found: ${method}`);
  tolerateFieldClients(request);
  const invalid = paramsProblem(method, request.params);
  if (invalid) return jsonRpcError(idOf(body), JsonRpcCode.INVALID_PARAMS, `Invalid params: ${invalid}`);
  return undefined;
}

/**
 * What runs before the SDK's HTTP+JSON handler: our body limit, with parse errors answered in the
 * REST error format of the requested version (google.rpc.Status for v1.0, the v0.3 shape otherwise).
 */
export function restPreflight(parse: RequestHandler): RequestHandler {
  return (req, res, next) =>
    parse(req, res, (error?: unknown) => (error ? answerRestParseError(error, req, res) : next()));
}

function answerRestParseError(error: unknown, req: Request, res: Response): void {
  const domain = toDomainError(error);
  const malformed = new RequestMalformedError(
    domain.code === ErrorCode.MALFORMED_REQUEST ? 'Malformed JSON in request body' : domain.message,
  );
  if (requestedVersion(req) === '1.0') {
    const status = domain.code === ErrorCode.PAYLOAD_TOO_LARGE ? 413 : restStatusFor(malformed);
    res.status(status).json(toRestErrorBody(malformed, status));
  } else {
    res.status(domain.code === ErrorCode.PAYLOAD_TOO_LARGE ? 413 : 400).json(toLegacyHTTPError(malformed));
  }
}
