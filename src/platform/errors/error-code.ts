/**
 * Every failure a service can report. Each transport maps these in one exhaustive table
 * (http-error.mapping.ts, json-rpc-error.mapping.ts, grpc-error.mapping.ts).
 */
export enum ErrorCode {
  /** The body is not well-formed (e.g. broken JSON). */
  MALFORMED_REQUEST = 'MALFORMED_REQUEST',
  /** The request is well-formed but structurally wrong for the protocol (e.g. not a JSON-RPC envelope). */
  INVALID_REQUEST = 'INVALID_REQUEST',
  /** A field is missing, has the wrong type or an out-of-range value. */
  VALIDATION_FAILED = 'VALIDATION_FAILED',
  /** The route or RPC method does not exist. */
  METHOD_NOT_FOUND = 'METHOD_NOT_FOUND',
  UNSUPPORTED_MEDIA_TYPE = 'UNSUPPORTED_MEDIA_TYPE',
  PAYLOAD_TOO_LARGE = 'PAYLOAD_TOO_LARGE',
  UNAUTHENTICATED = 'UNAUTHENTICATED',
  FORBIDDEN = 'FORBIDDEN',
  NOT_FOUND = 'NOT_FOUND',
  /** The resource already exists (a taken id). gRPC: ALREADY_EXISTS. */
  CONFLICT = 'CONFLICT',
  /**
   * Other requests kept changing the resource while this one tried to (its compare-and-set lost
   * every retry): nothing was changed; read again and retry. gRPC: ABORTED.
   */
  CONCURRENT_UPDATE = 'CONCURRENT_UPDATE',
  /**
   * The resource exists but its state does not allow the operation: removing or refreshing a
   * built-in agent, executing a tree that is executing, cancelling a finished task, changing a task
   * that is not pending. Retrying will not help until the state changes. gRPC: FAILED_PRECONDITION.
   */
  INVALID_STATE = 'INVALID_STATE',
  /** Task dependencies form a cycle (the cycle is named in the message). */
  CIRCULAR_DEPENDENCY = 'CIRCULAR_DEPENDENCY',
  /** A task names an executor (`schemas.method`) the hub does not have. */
  EXECUTOR_NOT_FOUND = 'EXECUTOR_NOT_FOUND',
  /** A compare-and-set lost: the caller's version (etag) is stale. */
  PRECONDITION_FAILED = 'PRECONDITION_FAILED',
  RATE_LIMITED = 'RATE_LIMITED',
  /** A backend this request needs (database, Redis) is unreachable. */
  SERVICE_UNAVAILABLE = 'SERVICE_UNAVAILABLE',
  /** A remote agent or endpoint answered badly or not at all. */
  UPSTREAM_FAILED = 'UPSTREAM_FAILED',
  UPSTREAM_TIMEOUT = 'UPSTREAM_TIMEOUT',
  INTERNAL = 'INTERNAL',
}

export function assertNever(value: never): never {
  throw new Error(`Unhandled case: ${String(value)}`);
}
