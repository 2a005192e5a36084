import { ErrorCode } from '../../platform/errors/error-code';

/** Key, in a failed task's metadata, of why the hub could not get an answer from the remote agent. */
export const REMOTE_FAILURE_KEY = 'switchboard_remote_failure';

/** Why a remote agent gave no answer: unreachable or failing (UPSTREAM_FAILED), or too slow (UPSTREAM_TIMEOUT). */
export interface RemoteFailure {
  code: ErrorCode.UPSTREAM_FAILED | ErrorCode.UPSTREAM_TIMEOUT;
  /** What happened, without where the agent lives: "connection refused", "timeout", the agent's own error. */
  reason: string;
}

export function remoteFailure(reason: string): RemoteFailure {
  return { code: reason === 'timeout' ? ErrorCode.UPSTREAM_TIMEOUT : ErrorCode.UPSTREAM_FAILED, reason };
}

/** The remote failure a task's metadata records, if any. */
export function remoteFailureOf(metadata: Record<string, unknown> | undefined): RemoteFailure | undefined {
  const failure = metadata?.[REMOTE_FAILURE_KEY] as Partial<RemoteFailure> | undefined;
  const known = failure?.code === ErrorCode.UPSTREAM_FAILED || failure?.code === ErrorCode.UPSTREAM_TIMEOUT;
  return known && typeof failure.reason === 'string' ? (failure as RemoteFailure) : undefined;
}
