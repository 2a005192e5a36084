import { HttpStatus, Injectable, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { RoutePolicies } from '../http/route-policies';
import { DomainError } from './domain-error';
import { ErrorCode } from './error-code';
import { httpErrorBody, httpStatusFor } from './http-error.mapping';
import { isTransportLevel, JsonRpcId, jsonRpcErrorResponse } from './json-rpc-error.mapping';
import { toDomainError } from './to-domain-error';

/**
 * How an error leaves over HTTP, wherever it was raised (Nest's exception filter, or the A2A
 * routes served before Nest's router): in the route's own shape when it has one (the agents.json
 * envelope), as a JSON-RPC error object on JSON-RPC routes, else as the hub's JSON error body.
 * Unknown errors are logged with their stack and answered with a generic INTERNAL error.
 */
@Injectable()
export class HttpErrorResponder {
  private readonly logger = new Logger('Errors');

  constructor(private readonly routes: RoutePolicies) {}

  /**
   * `jsonRpc`: whether the route speaks JSON-RPC with the hub's generic codes, for callers that know
   * (the A2A lane); else the route policies say, with the route's own code table.
   */
  reply(exception: unknown, req: Request, res: Response, jsonRpc?: boolean): void {
    const error = toDomainError(exception);
    this.log(error, exception, req.id);
    if (res.headersSent) {
      res.end();
      return;
    }
    const status = httpStatusFor(error.code);
    if (error.retryAfterSeconds !== undefined) res.setHeader('Retry-After', String(error.retryAfterSeconds));
    if (error.code === ErrorCode.UNAUTHENTICATED) res.setHeader('WWW-Authenticate', 'Bearer realm="switchboard"');
    const writeOwn = this.routes.errorWriterFor(req);
    if (writeOwn) return writeOwn(error, res);
    if (jsonRpc ?? this.routes.isJsonRpc(req)) {
      const httpStatus = isTransportLevel(error.code) ? status : HttpStatus.OK;
      const codes = jsonRpc === undefined ? this.routes.jsonRpcCodes(req) : undefined;
      res.status(httpStatus).json(jsonRpcErrorResponse(error, jsonRpcIdOf(req.body), codes));
      return;
    }
    res.status(status).json(httpErrorBody(error, req.id));
  }

  /** Logs what is the server's fault (with the request's id, when there is one) or an outage. */
  log(error: DomainError, original: unknown, requestId?: string): void {
    const during = requestId ? ` (request ${requestId})` : '';
    if (error.code === ErrorCode.INTERNAL) {
      const stack = original instanceof Error ? original.stack : String(original);
      this.logger.error(
        `Unhandled error${during}: ${original instanceof Error ? original.message : String(original)}`,
        stack,
      );
    } else if (error.code === ErrorCode.SERVICE_UNAVAILABLE) {
      this.logger.warn(`${error.message}${during}`);
    }
  }
}

function jsonRpcIdOf(body: unknown): JsonRpcId {
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    const id = (body as { id?: unknown }).id;
    if (typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id))) return id;
  }
  return null;
}
