import { DomainError, isDomainError } from '../errors/domain-error';
import { ErrorCode } from '../errors/error-code';

/*
 * What an outbound call's failures are: network errors from Node and undici by their codes, the
 * short reason callers show, and the DomainErrors OutboundHttp answers with.
 */

/** Connection errors after which the next resolved address is tried. */
export const TRY_NEXT_ADDRESS = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL']);

interface Failure {
  code: ErrorCode.UPSTREAM_FAILED | ErrorCode.UPSTREAM_TIMEOUT;
  reason: string;
}

const FAILURES: Record<string, Failure> = {
  ECONNREFUSED: { code: ErrorCode.UPSTREAM_FAILED, reason: 'connection refused' },
  ECONNRESET: { code: ErrorCode.UPSTREAM_FAILED, reason: 'connection reset' },
  EPIPE: { code: ErrorCode.UPSTREAM_FAILED, reason: 'connection reset' },
  UND_ERR_SOCKET: { code: ErrorCode.UPSTREAM_FAILED, reason: 'connection closed' },
  EHOSTUNREACH: { code: ErrorCode.UPSTREAM_FAILED, reason: 'host unreachable' },
  ENETUNREACH: { code: ErrorCode.UPSTREAM_FAILED, reason: 'host unreachable' },
  EHOSTDOWN: { code: ErrorCode.UPSTREAM_FAILED, reason: 'host unreachable' },
  ENOTFOUND: { code: ErrorCode.UPSTREAM_FAILED, reason: 'host not found' },
  // The resolver could not answer now (no DNS server reachable, SERVFAIL): the name may well exist.
  EAI_AGAIN: { code: ErrorCode.UPSTREAM_FAILED, reason: 'DNS lookup failed, try again' },
  UND_ERR_RES_EXCEEDED_MAX_SIZE: { code: ErrorCode.UPSTREAM_FAILED, reason: 'response too large' },
  ETIMEDOUT: { code: ErrorCode.UPSTREAM_TIMEOUT, reason: 'timeout' },
  UND_ERR_CONNECT_TIMEOUT: { code: ErrorCode.UPSTREAM_TIMEOUT, reason: 'timeout' },
  UND_ERR_HEADERS_TIMEOUT: { code: ErrorCode.UPSTREAM_TIMEOUT, reason: 'timeout' },
  UND_ERR_BODY_TIMEOUT: { code: ErrorCode.UPSTREAM_TIMEOUT, reason: 'timeout' },
};

/** A network error from node or undici, by its `code` (TLS ones by pattern), or undefined. */
export function knownFailure(error: unknown): Failure | undefined {
  const code = errorCode(error);
  if (FAILURES[code]) return FAILURES[code];
  if (/^ERR_(TLS|SSL)_|CERT|SELF_SIGNED/.test(code)) return { code: ErrorCode.UPSTREAM_FAILED, reason: 'TLS failure' };
  if (field(error, 'message') === 'redirect count exceeded') {
    return { code: ErrorCode.UPSTREAM_FAILED, reason: 'too many redirects' };
  }
  return undefined;
}

/**
 * The short reason an outbound call failed ('connection refused', 'timeout', 'host not found',
 * 'response too large', a refusal's reason, ...), for messages such as
 * "Failed to resolve agent card: connection refused". Looks through `cause` chains, so it also
 * reads errors that reached the caller wrapped (by fetch's TypeError, by the A2A SDK).
 */
export function outboundFailureReason(error: unknown): string {
  let current: unknown = error;
  for (let depth = 0; depth < 8 && current !== undefined && current !== null; depth++) {
    if (isDomainError(current) && typeof current.details?.reason === 'string') return current.details.reason;
    if (field(current, 'name') === 'AbortError') return 'aborted';
    if (field(current, 'name') === 'TimeoutError') return 'timeout';
    const failure = knownFailure(current);
    if (failure) return failure.reason;
    current = (current as { cause?: unknown }).cause;
  }
  return 'request failed';
}

/**
 * Turns what fetch or a body read threw into a DomainError. A DomainError anywhere in the cause
 * chain wins (refusals, our timeouts); a caller's abort passes through untouched; errors that are
 * not network failures (e.g. an invalid header from the caller) are rethrown as they are.
 */
export function toOutboundError(error: unknown, origin: string): unknown {
  if (isDomainError(error)) return error;
  const name = field(error, 'name');
  if (name === 'AbortError' || name === 'TimeoutError') return error;
  let current: unknown = error;
  for (let depth = 0; depth < 8 && typeof current === 'object' && current !== null; depth++) {
    if (isDomainError(current)) return current;
    const failure = knownFailure(current);
    if (failure) {
      const summary =
        failure.code === ErrorCode.UPSTREAM_TIMEOUT
          ? `Request to ${origin} timed out`
          : `Request to ${origin} failed: ${failure.reason}`;
      return new DomainError(failure.code, summary, { details: { url: origin, reason: failure.reason }, cause: error });
    }
    current = (current as { cause?: unknown }).cause;
  }
  const message = field(error, 'message');
  if (name === 'TypeError' && (message === 'fetch failed' || message === 'terminated')) {
    return new DomainError(ErrorCode.UPSTREAM_FAILED, `Request to ${origin} failed`, {
      details: { url: origin, reason: 'request failed' },
      cause: error,
    });
  }
  return error;
}

export function refused(address: string, reason: string): DomainError {
  return new DomainError(ErrorCode.VALIDATION_FAILED, `Refusing to connect to ${address}: ${reason}`, {
    details: { address, reason },
  });
}

export function timeoutError(origin: string, timeoutMs: number): DomainError {
  return new DomainError(ErrorCode.UPSTREAM_TIMEOUT, `Request to ${origin} timed out after ${timeoutMs} ms`, {
    details: { url: origin, reason: 'timeout', timeoutMs },
  });
}

export function errorCode(error: unknown): string {
  return field(error, 'code') ?? '';
}

/**
 * A string property of a thrown value. Duck-typed rather than `instanceof Error`: errors made by
 * Node core (socket errors, DOMException aborts) may come from another realm (e.g. under jest).
 */
function field(value: unknown, key: 'name' | 'message' | 'code'): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const property = (value as Record<string, unknown>)[key];
  return typeof property === 'string' ? property : undefined;
}
