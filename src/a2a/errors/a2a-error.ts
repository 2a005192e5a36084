import {
  A2AError,
  ContentTypeNotSupportedError,
  JsonRpcContentTypeNotSupportedError,
  JsonRpcRequestMalformedError,
  JsonRpcTaskNotFoundError,
  JsonRpcUnsupportedOperationError,
  RequestMalformedError,
  RestContentTypeNotSupportedError,
  RestRequestMalformedError,
  RestTaskNotFoundError,
  RestUnsupportedOperationError,
  TaskNotFoundError,
  UnsupportedOperationError,
} from '@a2a-js/sdk/errors';
import {
  GrpcContentTypeNotSupportedError,
  GrpcRequestMalformedError,
  GrpcTaskNotFoundError,
  GrpcUnsupportedOperationError,
} from '@a2a-js/sdk/errors/grpc';
import { DomainError } from '../../platform/errors/domain-error';
import { grpcStatusFor } from '../../platform/errors/grpc-error.mapping';
import { httpStatusFor } from '../../platform/errors/http-error.mapping';
import { jsonRpcCodeFor } from '../../platform/errors/json-rpc-error.mapping';
import type { A2aTransport } from '../hosting/call-state';
import { a2aErrorKindFor, A2aErrorKind } from './a2a-error.mapping';

/** What an A2A error says, on every transport. */
export interface A2aErrorSpec {
  kind: A2aErrorKind | 'hub';
  /** The ErrorInfo reason of the hub's own errors (a domain or orchestration code). */
  reason: string;
  message: string;
  /** The JSON-RPC code of the hub's own errors (the SDK's errors keep their A2A codes). */
  jsonRpcCode: number;
  httpStatus: number;
  grpcStatus: number;
  /** JSON-RPC `data` (v0.3); flattened to strings, the ErrorInfo metadata (v1.0, HTTP+JSON, gRPC). */
  data: Record<string, unknown>;
  cause?: unknown;
}

type Options = {
  message: string;
  metadata: Record<string, string>;
  cause?: unknown;
  data?: Record<string, unknown>;
  envelopeCode?: number;
  statusCode?: number;
  status?: number;
};
type ErrorClass = new (options: Options) => A2AError;

const SDK_ERRORS: Record<A2aTransport, Record<A2aErrorKind, ErrorClass>> = {
  jsonrpc: {
    TaskNotFoundError: JsonRpcTaskNotFoundError,
    UnsupportedOperationError: JsonRpcUnsupportedOperationError,
    ContentTypeNotSupportedError: JsonRpcContentTypeNotSupportedError,
    RequestMalformedError: JsonRpcRequestMalformedError,
  },
  rest: {
    TaskNotFoundError: RestTaskNotFoundError,
    UnsupportedOperationError: RestUnsupportedOperationError,
    ContentTypeNotSupportedError: RestContentTypeNotSupportedError,
    RequestMalformedError: RestRequestMalformedError,
  },
  grpc: {
    TaskNotFoundError: GrpcTaskNotFoundError,
    UnsupportedOperationError: GrpcUnsupportedOperationError,
    ContentTypeNotSupportedError: GrpcContentTypeNotSupportedError,
    RequestMalformedError: GrpcRequestMalformedError,
  },
  'in-process': {
    TaskNotFoundError,
    UnsupportedOperationError,
    ContentTypeNotSupportedError,
    RequestMalformedError,
  },
};

/**
 * The error an A2A caller gets, in the form of its transport: the SDK's own error class for that
 * transport (JSON-RPC code and `data`, HTTP status, gRPC status) or the hub's own (HubA2AError).
 * Callers in process read `data` from either.
 */
export function a2aError(spec: A2aErrorSpec, transport: A2aTransport): A2AError & { data?: Record<string, unknown> } {
  if (spec.kind === 'hub') return new HubA2AError(spec, transport);
  const options: Options = { message: spec.message, metadata: errorInfoMetadata(spec.data), cause: spec.cause };
  if (transport === 'jsonrpc') options.data = spec.data;
  if (transport === 'rest') options.statusCode = spec.httpStatus;
  if (transport === 'grpc') options.status = spec.grpcStatus;
  const error = new SDK_ERRORS[transport][spec.kind](options);
  return transport === 'in-process' ? Object.assign(error, { data: spec.data }) : error;
}

/** A domain error as an A2A caller gets it (see a2aErrorKindFor), its code and details in `data`. */
export function a2aErrorOf(error: DomainError, transport: A2aTransport): A2AError {
  return a2aError(
    {
      kind: a2aErrorKindFor(error.code),
      reason: error.code,
      message: error.message,
      jsonRpcCode: jsonRpcCodeFor(error.code),
      httpStatus: httpStatusFor(error.code),
      grpcStatus: grpcStatusFor(error.code),
      data: { code: error.code, ...(error.details ?? {}) },
      cause: error,
    },
    transport,
  );
}

/**
 * An A2A error A2A defines no kind for: a rate limit, a store down, an orchestration failure. Its
 * ErrorInfo reason is the hub's code; it carries what each transport needs (`transport`,
 * `envelopeCode` and `data`, `statusCode`, `status`), as the SDK's transport errors do.
 */
export class HubA2AError extends A2AError {
  override readonly reason: string;
  readonly data: Record<string, unknown>;
  readonly transport?: 'jsonrpc' | 'rest' | 'grpc';
  readonly envelopeCode?: number;
  readonly statusCode?: number;
  readonly status?: number;

  constructor(spec: A2aErrorSpec, transport: A2aTransport) {
    super({ message: spec.message, metadata: errorInfoMetadata(spec.data), cause: spec.cause });
    this.reason = spec.reason;
    this.data = spec.data;
    if (transport === 'in-process') return;
    this.transport = transport;
    if (transport === 'jsonrpc') {
      this.envelopeCode = spec.jsonRpcCode;
      // The SDK writes ErrorInfo details (v1.0 `data`) only for errors it knows by name; the
      // reason and metadata on the wire are this error's own, and clients read the code.
      this.name = 'InvalidAgentResponseError';
    } else if (transport === 'rest') {
      this.statusCode = spec.httpStatus;
    } else {
      this.status = spec.grpcStatus;
    }
  }
}

/** ErrorInfo metadata is a map of strings: strings and numbers as they are, anything else as JSON. */
function errorInfoMetadata(data: Record<string, unknown>): Record<string, string> {
  const metadata: Record<string, string> = {};
  for (const [key, value] of Object.entries(data)) {
    if (value === undefined || value === null) continue;
    metadata[key] =
      typeof value === 'string'
        ? value
        : typeof value === 'number' || typeof value === 'boolean'
          ? String(value)
          : JSON.stringify(value);
  }
  return metadata;
}
