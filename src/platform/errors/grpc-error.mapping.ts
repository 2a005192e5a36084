import { Metadata, status as GrpcStatus } from '@grpc/grpc-js';
import { DomainError } from './domain-error';
import { assertNever, ErrorCode } from './error-code';

export function grpcStatusFor(code: ErrorCode): GrpcStatus {
  switch (code) {
    case ErrorCode.MALFORMED_REQUEST:
    case ErrorCode.INVALID_REQUEST:
    case ErrorCode.VALIDATION_FAILED:
    case ErrorCode.CIRCULAR_DEPENDENCY:
    case ErrorCode.EXECUTOR_NOT_FOUND:
      return GrpcStatus.INVALID_ARGUMENT;
    case ErrorCode.METHOD_NOT_FOUND:
      return GrpcStatus.UNIMPLEMENTED;
    case ErrorCode.UNSUPPORTED_MEDIA_TYPE:
      return GrpcStatus.INVALID_ARGUMENT;
    case ErrorCode.PAYLOAD_TOO_LARGE:
      return GrpcStatus.RESOURCE_EXHAUSTED;
    case ErrorCode.UNAUTHENTICATED:
      return GrpcStatus.UNAUTHENTICATED;
    case ErrorCode.FORBIDDEN:
      return GrpcStatus.PERMISSION_DENIED;
    case ErrorCode.NOT_FOUND:
      return GrpcStatus.NOT_FOUND;
    case ErrorCode.CONFLICT:
      return GrpcStatus.ALREADY_EXISTS;
    case ErrorCode.INVALID_STATE:
      return GrpcStatus.FAILED_PRECONDITION;
    // A test-and-set lost (a stale version, or other writers won every retry): the client restarts
    // its read-modify-write, as gRPC's status guide has ABORTED for.
    case ErrorCode.PRECONDITION_FAILED:
    case ErrorCode.CONCURRENT_UPDATE:
      return GrpcStatus.ABORTED;
    case ErrorCode.RATE_LIMITED:
      return GrpcStatus.RESOURCE_EXHAUSTED;
    case ErrorCode.SERVICE_UNAVAILABLE:
    case ErrorCode.UPSTREAM_FAILED:
      return GrpcStatus.UNAVAILABLE;
    case ErrorCode.UPSTREAM_TIMEOUT:
      return GrpcStatus.DEADLINE_EXCEEDED;
    case ErrorCode.INTERNAL:
      return GrpcStatus.INTERNAL;
    default:
      return assertNever(code);
  }
}

/** The error object grpc-js turns into a status, message and trailers. */
export interface GrpcErrorObject {
  code: GrpcStatus;
  message: string;
  metadata: Metadata;
}

/** The domain of the hub's `google.rpc.ErrorInfo`: its reason is one of our ErrorCodes. */
export const ERROR_INFO_DOMAIN = 'switchboard';

/**
 * The gRPC error of a domain error: the status of the table above, the message, and the code kept
 * machine-readable twice - as `x-error-code` and, the standard way (AIP-193) that grpcurl, Envoy
 * and the Google client libraries read, as a `google.rpc.Status` in `grpc-status-details-bin`
 * holding one `google.rpc.ErrorInfo` (reason: the ErrorCode, domain: `switchboard`, metadata:
 * the error's details as strings), then a `google.rpc.BadRequest` naming each invalid field of a
 * validation error and a `google.rpc.RetryInfo` when the caller may retry after a delay.
 */
export function grpcError(error: DomainError): GrpcErrorObject {
  const code = grpcStatusFor(error.code);
  const metadata = new Metadata();
  metadata.set('x-error-code', error.code);
  if (error.retryAfterSeconds !== undefined) metadata.set('retry-after', String(error.retryAfterSeconds));
  const summary =
    error.message.length > DETAILS_MAX_CHARS ? `${error.message.slice(0, DETAILS_MAX_CHARS)}…` : error.message;
  const details = [badRequest(error), retryInfo(error)].filter((detail): detail is Buffer => detail !== undefined);
  const statusDetails = grpcStatusDetails(code, summary, error.code, stringValues(error.details), details);
  metadata.set('grpc-status-details-bin', statusDetails);
  return { code, message: error.message, metadata };
}

/**
 * Trailers share a client's metadata budget (8 KiB by default in grpc-js), so what the details
 * blob repeats is kept small; the full message is in `grpc-message` anyway.
 */
const DETAILS_MAX_CHARS = 2048;

/**
 * ErrorInfo metadata is a map of strings: strings and numbers as they are, anything else as JSON;
 * entries that would take the map past DETAILS_MAX_CHARS are left out.
 */
function stringValues(details: Record<string, unknown> | undefined): Record<string, string> {
  const values: Record<string, string> = {};
  let size = 0;
  for (const [key, value] of Object.entries(details ?? {})) {
    if (value === undefined) continue;
    const text = typeof value === 'string' || typeof value === 'number' ? String(value) : JSON.stringify(value);
    size += key.length + text.length;
    if (size > DETAILS_MAX_CHARS) break;
    values[key] = text;
  }
  return values;
}

const TYPE_URL_PREFIX = 'type.googleapis.com/';

/** One `google.protobuf.Any` holding `message` of the full type name `type`. */
function any(type: string, message: Buffer): Buffer {
  return concat(stringField(1, `${TYPE_URL_PREFIX}${type}`), bytesField(2, message));
}

/** The `{field, reason}` list of a validation error, as DomainError.validation writes it. */
function fieldProblems(error: DomainError): { field: string; reason: string }[] {
  const fields = error.details?.fields;
  if (!Array.isArray(fields)) return [];
  return fields.filter(
    (p): p is { field: string; reason: string } =>
      typeof (p as { field?: unknown })?.field === 'string' && typeof (p as { reason?: unknown }).reason === 'string',
  );
}

/** `google.rpc.BadRequest { field_violations: [{ field, description }] }`, for field problems. */
function badRequest(error: DomainError): Buffer | undefined {
  const problems = fieldProblems(error);
  if (problems.length === 0) return undefined;
  let size = 0;
  const violations: Buffer[] = [];
  for (const { field, reason } of problems) {
    size += field.length + reason.length;
    if (size > DETAILS_MAX_CHARS) break;
    violations.push(bytesField(1, concat(stringField(1, field), stringField(2, reason))));
  }
  return any('google.rpc.BadRequest', concat(...violations));
}

/** `google.rpc.RetryInfo { retry_delay: Duration { seconds } }`, when the error says when to retry. */
function retryInfo(error: DomainError): Buffer | undefined {
  const seconds = error.retryAfterSeconds;
  if (seconds === undefined || !Number.isFinite(seconds) || seconds < 0) return undefined;
  const whole = Math.ceil(seconds);
  const duration = whole === 0 ? Buffer.alloc(0) : concat(varint(1 << 3), varint(whole));
  return any('google.rpc.RetryInfo', bytesField(1, duration));
}

/**
 * `google.rpc.Status { code, message, details: [Any(ErrorInfo { reason, domain, metadata }), ...more] }`
 * in protobuf wire format, written by hand: small messages of strings, a map and varints (checked
 * against proto/google/rpc/*.proto in grpc-error.mapping.spec.ts). `more` are further packed Anys.
 * (The A2A SDK's encodeGrpcStatusDetails writes the A2A domain, not ours.)
 */
export function grpcStatusDetails(
  code: GrpcStatus,
  message: string,
  reason: string,
  metadata: Record<string, string> = {},
  more: Buffer[] = [],
): Buffer {
  const entries = Object.entries(metadata).map(([key, value]) =>
    bytesField(3, concat(stringField(1, key), stringField(2, value))),
  );
  const errorInfo = concat(stringField(1, reason), stringField(2, ERROR_INFO_DOMAIN), ...entries);
  return concat(
    code === GrpcStatus.OK ? Buffer.alloc(0) : concat(varint(1 << 3), varint(code)),
    stringField(2, message),
    bytesField(3, any('google.rpc.ErrorInfo', errorInfo)),
    ...more.map((detail) => bytesField(3, detail)),
  );
}

function varint(value: number): Buffer {
  const bytes: number[] = [];
  let rest = value >>> 0;
  while (rest > 0x7f) {
    bytes.push((rest & 0x7f) | 0x80);
    rest >>>= 7;
  }
  bytes.push(rest);
  return Buffer.from(bytes);
}

function bytesField(field: number, value: Buffer): Buffer {
  return concat(varint((field << 3) | 2), varint(value.length), value);
}

function stringField(field: number, value: string): Buffer {
  return bytesField(field, Buffer.from(value, 'utf8'));
}

function concat(...parts: Buffer[]): Buffer {
  return Buffer.concat(parts);
}
