import { createFileRegistry, fromBinary, toJson } from '@bufbuild/protobuf';
import { anyUnpack, FileDescriptorSetSchema } from '@bufbuild/protobuf/wkt';
import { status as GrpcStatus } from '@grpc/grpc-js';
import { readFileSync } from 'node:fs';
import { DESCRIPTOR_SET_FILE } from '../grpc/descriptor-set';
import { DomainError } from './domain-error';
import { ErrorCode } from './error-code';
import { grpcError, grpcStatusFor } from './grpc-error.mapping';

/** The google.rpc protos as buf built them (proto/google/rpc), to read our hand-written bytes. */
const registry = createFileRegistry(fromBinary(FileDescriptorSetSchema, readFileSync(DESCRIPTOR_SET_FILE)));
const statusType = registry.getMessage('google.rpc.Status')!;

/** The grpc-status-details-bin trailer of a domain error, decoded with the real schema to JSON. */
function statusDetails(error: DomainError) {
  const [bin] = grpcError(error).metadata.get('grpc-status-details-bin');
  const status = fromBinary(statusType, bin as Buffer) as unknown as {
    code: number;
    message: string;
    details: Parameters<typeof anyUnpack>[0][];
  };
  return {
    code: status.code,
    message: status.message,
    details: status.details.map((detail) => {
      const message = anyUnpack(detail, registry)!;
      return { type: message.$typeName, ...(toJson(registry.getMessage(message.$typeName)!, message) as object) };
    }),
  };
}

describe('gRPC error mapping', () => {
  it('maps every error code by one table: ALREADY_EXISTS, FAILED_PRECONDITION, ABORTED and PERMISSION_DENIED kept apart', () => {
    const table = Object.fromEntries(Object.values(ErrorCode).map((code) => [code, GrpcStatus[grpcStatusFor(code)]]));
    expect(table).toEqual({
      MALFORMED_REQUEST: 'INVALID_ARGUMENT',
      INVALID_REQUEST: 'INVALID_ARGUMENT',
      VALIDATION_FAILED: 'INVALID_ARGUMENT',
      METHOD_NOT_FOUND: 'UNIMPLEMENTED',
      UNSUPPORTED_MEDIA_TYPE: 'INVALID_ARGUMENT',
      PAYLOAD_TOO_LARGE: 'RESOURCE_EXHAUSTED',
      UNAUTHENTICATED: 'UNAUTHENTICATED',
      FORBIDDEN: 'PERMISSION_DENIED',
      NOT_FOUND: 'NOT_FOUND',
      CONFLICT: 'ALREADY_EXISTS',
      CONCURRENT_UPDATE: 'ABORTED',
      INVALID_STATE: 'FAILED_PRECONDITION',
      CIRCULAR_DEPENDENCY: 'INVALID_ARGUMENT',
      EXECUTOR_NOT_FOUND: 'INVALID_ARGUMENT',
      PRECONDITION_FAILED: 'ABORTED',
      RATE_LIMITED: 'RESOURCE_EXHAUSTED',
      SERVICE_UNAVAILABLE: 'UNAVAILABLE',
      UPSTREAM_FAILED: 'UNAVAILABLE',
      UPSTREAM_TIMEOUT: 'DEADLINE_EXCEEDED',
      INTERNAL: 'INTERNAL',
    });
  });

  it('names each invalid field in a google.rpc.BadRequest after the ErrorInfo', () => {
    const error = DomainError.validation([
      { field: 'tasks[0].name', reason: 'must not be empty' },
      { field: 'tasks[1].priority', reason: 'must be between 0 and 3' },
    ]);
    expect(statusDetails(error)).toEqual({
      code: GrpcStatus.INVALID_ARGUMENT,
      message: 'Invalid request: tasks[0].name must not be empty; tasks[1].priority must be between 0 and 3',
      details: [
        {
          type: 'google.rpc.ErrorInfo',
          reason: 'VALIDATION_FAILED',
          domain: 'switchboard',
          metadata: { fields: expect.stringContaining('tasks[0].name') },
        },
        {
          type: 'google.rpc.BadRequest',
          fieldViolations: [
            { field: 'tasks[0].name', description: 'must not be empty' },
            { field: 'tasks[1].priority', description: 'must be between 0 and 3' },
          ],
        },
      ],
    });
  });

  it('says when to retry in a google.rpc.RetryInfo on RESOURCE_EXHAUSTED and UNAVAILABLE', () => {
    const limited = new DomainError(ErrorCode.RATE_LIMITED, 'slow down', {
      retryAfterSeconds: 7,
      details: { policy: 'registry', limit: 10 },
    });
    expect(statusDetails(limited)).toEqual({
      code: GrpcStatus.RESOURCE_EXHAUSTED,
      message: 'slow down',
      details: [
        {
          type: 'google.rpc.ErrorInfo',
          reason: 'RATE_LIMITED',
          domain: 'switchboard',
          metadata: { policy: 'registry', limit: '10' },
        },
        { type: 'google.rpc.RetryInfo', retryDelay: '7s' },
      ],
    });
    const unavailable = new DomainError(ErrorCode.SERVICE_UNAVAILABLE, 'database down', { retryAfterSeconds: 0.2 });
    expect(statusDetails(unavailable).details[1]).toEqual({ type: 'google.rpc.RetryInfo', retryDelay: '1s' });
  });

  it('carries only the ErrorInfo when there are no field problems and no retry delay', () => {
    const error = new DomainError(ErrorCode.INVALID_STATE, 'Agent orchestrator is built in and cannot be removed');
    expect(statusDetails(error).details).toEqual([
      { type: 'google.rpc.ErrorInfo', reason: 'INVALID_STATE', domain: 'switchboard' },
    ]);
  });
});
