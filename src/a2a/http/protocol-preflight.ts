import { isLegacyJsonRpcMethod, isV1JsonRpcMethod } from '@a2a-js/sdk/compat/v0_3';
import { toLegacyHTTPError } from '@a2a-js/sdk/compat/v0_3/server';
import { A2AError, RequestMalformedError, restStatusFor, toJsonRpcError, toRestErrorBody } from '@a2a-js/sdk/errors';
import type { ErrorRequestHandler, Request, RequestHandler, Response } from 'express';
import { ErrorCode } from '../../platform/errors/error-code';
import { httpStatusFor } from '../../platform/errors/http-error.mapping';
import { isTransportLevel, JsonRpcCode, jsonRpcCodeFor } from '../../platform/errors/json-rpc-error.mapping';
import { emptyBodyError, envelopeProblem, idOf, jsonRpcError, JsonRpcReply } from '../../platform/json-rpc/json-rpc';
import { toDomainError } from '../../platform/errors/to-domain-error';
import { sentEmptyBody } from '../../platform/http/json-body.middleware';
import { A2aVersion, negotiateVersion, requestedVersion } from './a2a-version';
import { tolerateFieldClients } from './field-client-tolerance';
import { paramsProblem } from './json-rpc-params';
import { restBodyProblem } from './rest-body';

/**
 * What runs before the SDK's JSON-RPC handler: our body limit, and the checks the SDK gets wrong
 * or too strict. Malformed or empty JSON → -32700; an `A2A-Version` the hub does not serve → -32009
 * (a served one is spelled as the SDK expects it, see negotiateVersion); a body that is not a
 * JSON-RPC request object (array, wrong `jsonrpc`, non-string method, bad id) → -32600 (the SDK
 * answers -32602 on v1.0); an unknown method → -32601 (likewise); then field-client tolerance
 * (v0.3, see field-client-tolerance.ts) and the params' shape (-32602 naming the field, where the
 * SDK would answer its internal error or coerce the value). One middleware, not one per step:
 * each express layer costs every message its dispatch.
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
  const negotiated = negotiateVersion(req);
  if ('error' in negotiated) return a2aJsonRpcError(idOf(req.body), negotiated.error);
  if (req.body === undefined) return undefined; // not a JSON body: the SDK answers it
  if (sentEmptyBody(req)) return emptyBodyError();
  const body: unknown = req.body;
  const problem = Array.isArray(body) ? 'batch requests are not supported' : envelopeProblem(body);
  if (problem) return jsonRpcError(idOf(body), JsonRpcCode.INVALID_REQUEST, `Invalid Request: ${problem}`);
  const request = body as Record<string, unknown>;
  const method = request.method as string;
  const known = negotiated.version === '1.0' ? isV1JsonRpcMethod(method) : isLegacyJsonRpcMethod(method);
  if (!known) return jsonRpcError(idOf(body), JsonRpcCode.METHOD_NOT_FOUND, `Method not found: ${method}`);
  tolerateFieldClients(request);
  const invalid = paramsProblem(method, request.params);
  if (invalid) return jsonRpcError(idOf(body), JsonRpcCode.INVALID_PARAMS, `Invalid params: ${invalid}`);
  return undefined;
}

/** An A2A error as the JSON-RPC binding writes it: its A2A code, its ErrorInfo in `data`. */
function a2aJsonRpcError(id: ReturnType<typeof idOf>, error: A2AError): JsonRpcReply {
  return { jsonrpc: '2.0', id, error: toJsonRpcError(error) } as JsonRpcReply;
}

/**
 * What runs before the SDK's HTTP+JSON handler: our body limit, with parse errors answered in the
 * REST error format of the requested version (google.rpc.Status for v1.0, the v0.3 shape
 * otherwise); an `A2A-Version` the hub does not serve → 400 FAILED_PRECONDITION with the reason
 * VERSION_NOT_SUPPORTED; then the body's shape (rest-body.ts) → 400 naming the field, where the
 * SDK would answer 500 or coerce the value.
 */
export function restPreflight(parse: RequestHandler): RequestHandler {
  return (req, res, next) =>
    parse(req, res, (error?: unknown) => {
      if (error) return answerRestParseError(error, req, res);
      const negotiated = negotiateVersion(req);
      if ('error' in negotiated) return void res.status(400).json(toRestErrorBody(negotiated.error, 400));
      const problem = restBodyProblem(req.method, req.url, negotiated.version, req.body);
      if (problem)
        return answerRest(new RequestMalformedError(`Invalid request body: ${problem}`), 400, negotiated.version, res);
      next();
    });
}

/**
 * What the SDK's HTTP+JSON router passes on instead of answering - a path parameter that is not
 * valid percent-encoding (`tasks/%ZZ`), which express fails to decode before any route runs - in
 * the REST error format of the requested version, like every other refusal on these routes. What
 * is not the client's doing goes on to the server's error filter.
 */
export const restRouteErrors: ErrorRequestHandler = (error: unknown, req, res, next) => {
  const domain = toDomainError(error);
  const status: number = httpStatusFor(domain.code);
  if (res.headersSent || status >= 500) return next(error);
  answerRest(new RequestMalformedError(domain.message), status, requestedVersion(req) ?? '1.0', res);
};

function answerRestParseError(error: unknown, req: Request, res: Response): void {
  const domain = toDomainError(error);
  const malformed = new RequestMalformedError(
    domain.code === ErrorCode.MALFORMED_REQUEST ? 'Malformed JSON in request body' : domain.message,
  );
  const status = domain.code === ErrorCode.PAYLOAD_TOO_LARGE ? 413 : restStatusFor(malformed);
  // A version the hub does not serve gets the v1.0 format, as its refusal would.
  answerRest(malformed, status, requestedVersion(req) ?? '1.0', res);
}

/** An A2A error in the HTTP+JSON format of `version`. */
function answerRest(error: A2AError, status: number, version: A2aVersion, res: Response): void {
  if (version === '1.0') res.status(status).json(toRestErrorBody(error, status));
  else res.status(status).json(toLegacyHTTPError(error));
}
