import { DomainError } from './domain-error';
import { assertNever, ErrorCode } from './error-code';

/** JSON-RPC 2.0 reserved codes and the server-error range codes we use. */
export const JsonRpcCode = {
  PARSE_ERROR: -32700,
  INVALID_REQUEST: -32600,
  METHOD_NOT_FOUND: -32601,
  INVALID_PARAMS: -32602,
  INTERNAL_ERROR: -32603,
  /**
   * Server-error range (-32000..-32099), outside -32001..-32009: A2A reserves those (-32004 is
   * UnsupportedOperation), and the official clients turn them into A2A errors.
   */
  UNAUTHENTICATED: -32041,
  FORBIDDEN: -32043,
  NOT_FOUND: -32044,
  CONFLICT: -32049,
  RATE_LIMITED: -32029,
  UPSTREAM_FAILED: -32050,
  UPSTREAM_TIMEOUT: -32051,
  SERVICE_UNAVAILABLE: -32053,
} as const;

export function jsonRpcCodeFor(code: ErrorCode): number {
  switch (code) {
    case ErrorCode.MALFORMED_REQUEST:
      return JsonRpcCode.PARSE_ERROR;
    case ErrorCode.INVALID_REQUEST:
    case ErrorCode.UNSUPPORTED_MEDIA_TYPE:
    case ErrorCode.PAYLOAD_TOO_LARGE:
      return JsonRpcCode.INVALID_REQUEST;
    case ErrorCode.METHOD_NOT_FOUND:
      return JsonRpcCode.METHOD_NOT_FOUND;
    case ErrorCode.VALIDATION_FAILED:
    case ErrorCode.CIRCULAR_DEPENDENCY:
    case ErrorCode.EXECUTOR_NOT_FOUND:
      return JsonRpcCode.INVALID_PARAMS;
    case ErrorCode.NOT_FOUND:
      return JsonRpcCode.NOT_FOUND;
    case ErrorCode.UNAUTHENTICATED:
      return JsonRpcCode.UNAUTHENTICATED;
    case ErrorCode.FORBIDDEN:
      return JsonRpcCode.FORBIDDEN;
    case ErrorCode.CONFLICT:
    case ErrorCode.CONCURRENT_UPDATE:
    case ErrorCode.INVALID_STATE:
    case ErrorCode.PRECONDITION_FAILED:
      return JsonRpcCode.CONFLICT;
    case ErrorCode.RATE_LIMITED:
      return JsonRpcCode.RATE_LIMITED;
    case ErrorCode.SERVICE_UNAVAILABLE:
      return JsonRpcCode.SERVICE_UNAVAILABLE;
    case ErrorCode.UPSTREAM_FAILED:
      return JsonRpcCode.UPSTREAM_FAILED;
    case ErrorCode.UPSTREAM_TIMEOUT:
      return JsonRpcCode.UPSTREAM_TIMEOUT;
    case ErrorCode.INTERNAL:
      return JsonRpcCode.INTERNAL_ERROR;
    default:
      return assertNever(code);
  }
}

/**
 * Errors that belong to the HTTP exchange itself rather than to the JSON-RPC call keep their HTTP
 * status on JSON-RPC routes (clients probe auth with a 401; an endpoint that does not exist is a
 * 404); all others are answered with 200. JSON-RPC dispatchers answer their own method-level
 * errors (a task not found) themselves, so a NOT_FOUND reaching the filter is the endpoint's.
 */
export function isTransportLevel(code: ErrorCode): boolean {
  return (
    code === ErrorCode.UNAUTHENTICATED ||
    code === ErrorCode.NOT_FOUND ||
    code === ErrorCode.FORBIDDEN ||
    code === ErrorCode.PAYLOAD_TOO_LARGE ||
    code === ErrorCode.RATE_LIMITED ||
    code === ErrorCode.SERVICE_UNAVAILABLE
  );
}

export type JsonRpcId = string | number | null;

export interface JsonRpcErrorResponse {
  jsonrpc: '2.0';
  id: JsonRpcId;
  error: { code: number; message: string; data?: Record<string, unknown> };
}

/** Domain code → JSON-RPC code. An API with its own codes (the task-tree API) passes its own table. */
export type JsonRpcCodeTable = (code: ErrorCode) => number;

export function jsonRpcErrorResponse(
  error: DomainError,
  id: JsonRpcId,
  codeFor: JsonRpcCodeTable = jsonRpcCodeFor,
): JsonRpcErrorResponse {
  // A validation error names its first problem at the top of `data` ({field, reason}), all in `fields`.
  const [first] = (error.details?.fields as { field: string; reason: string }[] | undefined) ?? [];
  const data = {
    code: error.code,
    ...(first ? { field: first.field, reason: first.reason } : {}),
    ...(error.details ?? {}),
  };
  return { jsonrpc: '2.0', id, error: { code: codeFor(error.code), message: error.message, data } };
}
