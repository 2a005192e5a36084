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

export function grpcError(error: DomainError): GrpcErrorObject {
  const metadata = new Metadata();
  metadata.set('x-error-code', error.code);
  if (error.retryAfterSeconds !== undefined) metadata.set('retry-after', String(error.retryAfterSeconds));
  return { code: grpcStatusFor(error.code), message: error.message, metadata };
}
