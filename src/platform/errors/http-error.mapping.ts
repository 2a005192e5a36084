import { HttpStatus } from '@nestjs/common';
import { DomainError } from './domain-error';
import { assertNever, ErrorCode } from './error-code';

export function httpStatusFor(code: ErrorCode): HttpStatus {
  switch (code) {
    case ErrorCode.MALFORMED_REQUEST:
    case ErrorCode.INVALID_REQUEST:
    case ErrorCode.VALIDATION_FAILED:
    case ErrorCode.CIRCULAR_DEPENDENCY:
    case ErrorCode.EXECUTOR_NOT_FOUND:
      return HttpStatus.BAD_REQUEST;
    case ErrorCode.METHOD_NOT_FOUND:
    case ErrorCode.NOT_FOUND:
      return HttpStatus.NOT_FOUND;
    case ErrorCode.UNSUPPORTED_MEDIA_TYPE:
      return HttpStatus.UNSUPPORTED_MEDIA_TYPE;
    case ErrorCode.PAYLOAD_TOO_LARGE:
      return HttpStatus.PAYLOAD_TOO_LARGE;
    case ErrorCode.UNAUTHENTICATED:
      return HttpStatus.UNAUTHORIZED;
    case ErrorCode.FORBIDDEN:
      return HttpStatus.FORBIDDEN;
    case ErrorCode.CONFLICT:
    case ErrorCode.CONCURRENT_UPDATE:
    case ErrorCode.INVALID_STATE:
      return HttpStatus.CONFLICT;
    case ErrorCode.PRECONDITION_FAILED:
      return HttpStatus.PRECONDITION_FAILED;
    case ErrorCode.RATE_LIMITED:
      return HttpStatus.TOO_MANY_REQUESTS;
    case ErrorCode.SERVICE_UNAVAILABLE:
      return HttpStatus.SERVICE_UNAVAILABLE;
    case ErrorCode.UPSTREAM_FAILED:
      return HttpStatus.BAD_GATEWAY;
    case ErrorCode.UPSTREAM_TIMEOUT:
      return HttpStatus.GATEWAY_TIMEOUT;
    case ErrorCode.INTERNAL:
      return HttpStatus.INTERNAL_SERVER_ERROR;
    default:
      return assertNever(code);
  }
}

/** The JSON body of every non-JSON-RPC error response. */
export interface HttpErrorBody {
  statusCode: number;
  code: ErrorCode;
  message: string;
  details?: Record<string, unknown>;
  requestId?: string;
}

export function httpErrorBody(error: DomainError, requestId?: string): HttpErrorBody {
  return {
    statusCode: httpStatusFor(error.code),
    code: error.code,
    message: error.message,
    ...(error.details ? { details: error.details } : {}),
    ...(requestId ? { requestId } : {}),
  };
}
