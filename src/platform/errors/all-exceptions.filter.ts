import { ArgumentsHost, Catch, ExceptionFilter, HttpStatus, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { Observable, throwError } from 'rxjs';
import { DomainError } from './domain-error';
import { ErrorCode } from './error-code';
import { grpcError } from './grpc-error.mapping';
import { httpErrorBody, httpStatusFor } from './http-error.mapping';
import { isTransportLevel, JsonRpcId, jsonRpcErrorResponse } from './json-rpc-error.mapping';
import { RoutePolicies } from '../http/route-policies';
import { toDomainError } from './to-domain-error';

/**
 * The one place where errors leave the process. HTTP gets a JSON body (or a JSON-RPC error object
 * on JSON-RPC routes), gRPC gets a status with the same message. Unknown errors are logged with
 * their stack and answered with a generic INTERNAL error.
 */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  constructor(private readonly routes: RoutePolicies) {}

  catch(exception: unknown, host: ArgumentsHost): void | Observable<never> {
    const error = toDomainError(exception);
    this.log(error, exception);
    if (host.getType() === 'rpc') {
      return throwError(() => grpcError(error));
    }
    if (host.getType() === 'http') {
      this.replyHttp(error, host.switchToHttp().getRequest<Request>(), host.switchToHttp().getResponse<Response>());
    }
  }

  private replyHttp(error: DomainError, req: Request, res: Response): void {
    if (res.headersSent) {
      res.end();
      return;
    }
    const status = httpStatusFor(error.code);
    if (error.retryAfterSeconds !== undefined) res.setHeader('Retry-After', String(error.retryAfterSeconds));
    if (error.code === ErrorCode.UNAUTHENTICATED) res.setHeader('WWW-Authenticate', 'Bearer realm="switchboard"');
    const requestId = typeof req.id === 'string' ? req.id : undefined;
    const writeOwn = this.routes.errorWriterFor(req);
    if (writeOwn) return writeOwn(error, res);
    if (this.routes.isJsonRpc(req)) {
      const httpStatus = isTransportLevel(error.code) ? status : HttpStatus.OK;
      res.status(httpStatus).json(jsonRpcErrorResponse(error, jsonRpcIdOf(req.body), this.routes.jsonRpcCodes(req)));
      return;
    }
    res.status(status).json(httpErrorBody(error, requestId));
  }

  private log(error: DomainError, original: unknown): void {
    if (error.code === ErrorCode.INTERNAL) {
      const stack = original instanceof Error ? original.stack : String(original);
      this.logger.error(`Unhandled error: ${original instanceof Error ? original.message : String(original)}`, stack);
    } else if (error.code === ErrorCode.SERVICE_UNAVAILABLE) {
      this.logger.warn(error.message);
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
