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
    case ErrorCode.PRECONDITION_FAILED:
      return GrpcStatus.FAILED_PRECONDITION;
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
 * the error's details as strings).
 */
export function grpcError(error: DomainError): GrpcErrorObject {
  const code = grpcStatusFor(error.code);
  const metadata = new Metadata();
  metadata.set('x-error-code', error.code);
  if (error.retryAfterSeconds !== undefined) metadata.set('retry-after', String(error.retryAfterSeconds));
  const summary =
    error.message.length > DETAILS_MAX_CHARS ? `${error.message.slice(0, DETAILS_MAX_CHARS)}…` : error.message;
  metadata.set('grpc-status-details-bin', grpcStatusDetails(code, summary, error.code, stringValues(error.details)));
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

const ERROR_INFO_TYPE_URL = 'type.googleapis.com/google.rpc.ErrorInfo';

/**
 * `google.rpc.Status { code, message, details: [Any(ErrorInfo { reason, domain, metadata })] }`
 * in protobuf wire format, written by hand: three small messages of strings, a map and one
 * varint. (The A2A SDK's encodeGrpcStatusDetails writes the A2A domain, not ours.)
 */
export function grpcStatusDetails(
  code: GrpcStatus,
  message: string,
  reason: string,
  metadata: Record<string, string> = {},
): Buffer {
  const entries = Object.entries(metadata).map(([key, value]) =>
    bytesField(3, concat(stringField(1, key), stringField(2, value))),
  );
  const errorInfo = concat(stringField(1, reason), stringField(2, ERROR_INFO_DOMAIN), ...entries);
  const any = concat(stringField(1, ERROR_INFO_TYPE_URL), bytesField(2, errorInfo));
  return concat(
    code === GrpcStatus.OK ? Buffer.alloc(0) : concat(varint(1 << 3), varint(code)),
    stringField(2, message),
    bytesField(3, any),
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
