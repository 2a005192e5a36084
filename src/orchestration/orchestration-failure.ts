import { status as GrpcStatus } from '@grpc/grpc-js';
import { HttpStatus } from '@nestjs/common';
import { a2aError } from '../a2a/errors/a2a-error';
import type { A2aTransport } from '../a2a/hosting/call-state';
import { assertNever } from '../platform/errors/error-code';
import { ORCHESTRATION_ERROR_CODES } from './orchestration.types';
import type { OrchestrationError, OrchestrationErrorCode } from './orchestration.types';

/** A request the orchestrator could not complete, with what to tell the user. */
export class OrchestrationFailure extends Error {
  override name = 'OrchestrationFailure';

  constructor(
    readonly error: OrchestrationError,
    /** For AGENT_TIMEOUT: what the agents that did answer said. */
    readonly partial?: { text: string; agentsUsed: string[] },
  ) {
    super(error.userMessage);
  }
}

/**
 * How each orchestration failure reads on the wire: JSON-RPC codes in the server range, clear of
 * A2A's -32001..-32009 and the platform's; the HTTP status and gRPC code of what went wrong.
 */
function wireCodes(code: OrchestrationErrorCode): { jsonRpcCode: number; httpStatus: number; grpcStatus: number } {
  switch (code) {
    case 'ROUTER_FAILURE':
      return { jsonRpcCode: -32061, httpStatus: HttpStatus.BAD_GATEWAY, grpcStatus: GrpcStatus.UNAVAILABLE };
    case 'AGENT_TIMEOUT':
      return {
        jsonRpcCode: -32062,
        httpStatus: HttpStatus.GATEWAY_TIMEOUT,
        grpcStatus: GrpcStatus.DEADLINE_EXCEEDED,
      };
    case 'WORKFLOW_ERROR':
      return {
        jsonRpcCode: -32063,
        httpStatus: HttpStatus.INTERNAL_SERVER_ERROR,
        grpcStatus: GrpcStatus.INTERNAL,
      };
    default:
      return assertNever(code);
  }
}

/** The A2A error an orchestration failure is: its message the user message, the OrchestrationError its `data`. */
export function orchestrationA2aError(error: OrchestrationError, transport: A2aTransport) {
  return a2aError(
    {
      kind: 'hub',
      reason: error.errorCode,
      message: error.userMessage,
      ...wireCodes(error.errorCode),
      data: { ...error },
    },
    transport,
  );
}

/** The OrchestrationError an error thrown by the orchestrator's handler carries, if it is one. */
export function orchestrationErrorOf(error: unknown): OrchestrationError | undefined {
  const data = (error as { data?: { errorCode?: unknown } } | undefined)?.data;
  const code = data?.errorCode;
  return typeof code === 'string' && (ORCHESTRATION_ERROR_CODES as readonly string[]).includes(code)
    ? (data as OrchestrationError)
    : undefined;
}
