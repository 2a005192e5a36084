import { ArgumentsHost, Catch, ExceptionFilter } from '@nestjs/common';
import type { Request, Response } from 'express';
import { Observable, throwError } from 'rxjs';
import { grpcError } from './grpc-error.mapping';
import { HttpErrorResponder } from './http-error.responder';
import { toDomainError } from './to-domain-error';

/**
 * The one place where errors raised inside Nest leave the process: gRPC gets a status with the
 * error's message; HTTP answers are written by HttpErrorResponder (also used by the routes
 * served before Nest's router).
 */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  constructor(private readonly http: HttpErrorResponder) {}

  catch(exception: unknown, host: ArgumentsHost): void | Observable<never> {
    if (host.getType() === 'rpc') {
      const error = toDomainError(exception);
      this.http.log(error, exception);
      return throwError(() => grpcError(error));
    }
    if (host.getType() === 'http') {
      this.http.reply(
        exception,
        host.switchToHttp().getRequest<Request>(),
        host.switchToHttp().getResponse<Response>(),
      );
    }
  }
}
