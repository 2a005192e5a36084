import { ErrorCode } from './error-code';

export interface FieldProblem {
  field: string;
  reason: string;
}

export interface DomainErrorOptions {
  details?: Record<string, unknown>;
  /** For RATE_LIMITED and SERVICE_UNAVAILABLE: when the caller may retry. */
  retryAfterSeconds?: number;
  cause?: unknown;
}

/**
 * The only error type services throw. Transports turn it into their own shape; services never
 * know about HTTP statuses, JSON-RPC codes or gRPC statuses.
 */
export class DomainError extends Error {
  readonly details?: Record<string, unknown>;
  readonly retryAfterSeconds?: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    options: DomainErrorOptions = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'DomainError';
    this.details = options.details;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }

  static validation(problems: FieldProblem[], message?: string): DomainError {
    const summary = problems.map((p) => `${p.field} ${p.reason}`).join('; ');
    return new DomainError(ErrorCode.VALIDATION_FAILED, message ?? `Invalid request: ${summary}`, {
      details: { fields: problems },
    });
  }

  static notFound(what: string, id: string): DomainError {
    return new DomainError(ErrorCode.NOT_FOUND, `${what} not found: ${id}`, { details: { id } });
  }
}

export function isDomainError(error: unknown): error is DomainError {
  return error instanceof DomainError;
}
