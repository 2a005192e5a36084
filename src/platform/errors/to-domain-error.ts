import { HttpException, HttpStatus } from '@nestjs/common';
import { DomainError } from './domain-error';
import { ErrorCode } from './error-code';

const STATUS_TO_CODE: Partial<Record<number, ErrorCode>> = {
  [HttpStatus.BAD_REQUEST]: ErrorCode.VALIDATION_FAILED,
  [HttpStatus.UNAUTHORIZED]: ErrorCode.UNAUTHENTICATED,
  [HttpStatus.FORBIDDEN]: ErrorCode.FORBIDDEN,
  [HttpStatus.NOT_FOUND]: ErrorCode.NOT_FOUND,
  [HttpStatus.METHOD_NOT_ALLOWED]: ErrorCode.METHOD_NOT_FOUND,
  [HttpStatus.CONFLICT]: ErrorCode.CONFLICT,
  [HttpStatus.PRECONDITION_FAILED]: ErrorCode.PRECONDITION_FAILED,
  [HttpStatus.PAYLOAD_TOO_LARGE]: ErrorCode.PAYLOAD_TOO_LARGE,
  [HttpStatus.UNSUPPORTED_MEDIA_TYPE]: ErrorCode.UNSUPPORTED_MEDIA_TYPE,
  [HttpStatus.TOO_MANY_REQUESTS]: ErrorCode.RATE_LIMITED,
  [HttpStatus.SERVICE_UNAVAILABLE]: ErrorCode.SERVICE_UNAVAILABLE,
};

/** body-parser / raw-body errors carry an `expose`d status and a `type`. */
interface HttpLikeError {
  status?: number;
  statusCode?: number;
  type?: string;
  expose?: boolean;
  message?: string;
}

/**
 * Turns anything thrown into a DomainError. Framework errors (Nest's HttpException, body-parser
 * errors) keep their meaning; everything unknown becomes INTERNAL with a generic message so no
 * internals leak to clients.
 */
export function toDomainError(error: unknown): DomainError {
  if (error instanceof DomainError) return error;
  if (error instanceof HttpException) {
    const status = error.getStatus();
    const code = STATUS_TO_CODE[status] ?? (status >= 500 ? ErrorCode.INTERNAL : ErrorCode.INVALID_REQUEST);
    return new DomainError(code, messageOf(error), { cause: error });
  }
  const httpLike = error as HttpLikeError | null;
  if (httpLike && typeof httpLike === 'object' && httpLike.expose === true) {
    switch (httpLike.type) {
      case 'entity.parse.failed':
        return new DomainError(ErrorCode.MALFORMED_REQUEST, 'Malformed JSON in request body', { cause: error });
      case 'entity.too.large':
        return new DomainError(ErrorCode.PAYLOAD_TOO_LARGE, 'Request body is larger than the server accepts', {
          cause: error,
        });
      case 'encoding.unsupported':
      case 'charset.unsupported':
        return new DomainError(ErrorCode.UNSUPPORTED_MEDIA_TYPE, httpLike.message ?? 'Unsupported body encoding', {
          cause: error,
        });
      default: {
        const status = httpLike.status ?? httpLike.statusCode ?? HttpStatus.BAD_REQUEST;
        const code = STATUS_TO_CODE[status] ?? ErrorCode.INVALID_REQUEST;
        return new DomainError(code, httpLike.message ?? 'Bad request', { cause: error });
      }
    }
  }
  // The router's decodeParam: a path parameter that is not valid percent-encoding (`%ZZ`, `%E0%A4%A`).
  if (error instanceof URIError) {
    return new DomainError(
      ErrorCode.INVALID_REQUEST,
      error.message || 'A path parameter is not valid percent-encoding',
      {
        cause: error,
      },
    );
  }
  if (isDatabaseOutage(error)) {
    return new DomainError(ErrorCode.SERVICE_UNAVAILABLE, 'The database is unavailable; try again shortly', {
      retryAfterSeconds: 1,
      cause: error,
    });
  }
  return new DomainError(ErrorCode.INTERNAL, 'Internal server error', { cause: error });
}

/** Socket errors and PostgreSQL class 08 (connection) / 57P (shutdown) errors. */
const OUTAGE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', '57P01', '57P02', '57P03']);

function isDatabaseOutage(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code ?? (error as { driverError?: { code?: unknown } }).driverError?.code;
  if (typeof code === 'string' && (OUTAGE_CODES.has(code) || code.startsWith('08'))) return true;
  // The embedded database's socket file missing: a failed connect, not any missing file.
  if (code === 'ENOENT' && (error as { syscall?: unknown }).syscall === 'connect') return true;
  return /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error/i.test(
    error.message,
  );
}

function messageOf(error: HttpException): string {
  const response = error.getResponse();
  if (typeof response === 'string') return response;
  const message = (response as { message?: unknown }).message;
  if (Array.isArray(message)) return message.join('; ');
  return typeof message === 'string' ? message : error.message;
}
