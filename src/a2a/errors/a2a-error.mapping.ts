import { assertNever, ErrorCode } from '../../platform/errors/error-code';

/** The A2A errors of the SDK the hub's domain errors can be: each has its code on every transport. */
export type A2aErrorKind =
  'TaskNotFoundError' | 'UnsupportedOperationError' | 'ContentTypeNotSupportedError' | 'RequestMalformedError';

/**
 * Which A2A error a domain error is when it reaches an A2A caller: one of the SDK's (with the A2A
 * code, -32001 … -32009 or -32602, and its ErrorInfo reason), or - where A2A defines none - the
 * hub's own, named by the domain code and carrying the platform's JSON-RPC code (see
 * json-rpc-error.mapping.ts). HTTP statuses and gRPC codes are the platform's tables' either way.
 */
export function a2aErrorKindFor(code: ErrorCode): A2aErrorKind | 'hub' {
  switch (code) {
    case ErrorCode.MALFORMED_REQUEST:
    case ErrorCode.INVALID_REQUEST:
    case ErrorCode.VALIDATION_FAILED:
    case ErrorCode.PAYLOAD_TOO_LARGE:
    case ErrorCode.CIRCULAR_DEPENDENCY:
    case ErrorCode.EXECUTOR_NOT_FOUND:
      return 'RequestMalformedError';
    case ErrorCode.UNSUPPORTED_MEDIA_TYPE:
      return 'ContentTypeNotSupportedError';
    case ErrorCode.METHOD_NOT_FOUND:
      return 'UnsupportedOperationError';
    case ErrorCode.NOT_FOUND:
      return 'TaskNotFoundError';
    case ErrorCode.UNAUTHENTICATED:
    case ErrorCode.FORBIDDEN:
    case ErrorCode.CONFLICT:
    case ErrorCode.CONCURRENT_UPDATE:
    case ErrorCode.INVALID_STATE:
    case ErrorCode.PRECONDITION_FAILED:
    case ErrorCode.RATE_LIMITED:
    case ErrorCode.SERVICE_UNAVAILABLE:
    case ErrorCode.UPSTREAM_FAILED:
    case ErrorCode.UPSTREAM_TIMEOUT:
    case ErrorCode.INTERNAL:
      return 'hub';
    default:
      return assertNever(code);
  }
}
