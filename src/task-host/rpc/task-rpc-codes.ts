import { ErrorCode } from '../../platform/errors/error-code';
import { jsonRpcCodeFor } from '../../platform/errors/json-rpc-error.mapping';

/** The task-tree API's own JSON-RPC codes (apflow interface protocol). */
export const TaskRpcCode = {
  TASK_NOT_FOUND: -32001,
  CIRCULAR_DEPENDENCY: -32002,
  EXECUTOR_NOT_FOUND: -32003,
  UNAUTHORIZED: -32004,
} as const;

/** Domain code → JSON-RPC code on /tasks: the protocol's own codes first, the hub's table for the rest. */
export function taskRpcCodeFor(code: ErrorCode): number {
  switch (code) {
    case ErrorCode.NOT_FOUND:
      return TaskRpcCode.TASK_NOT_FOUND;
    case ErrorCode.CIRCULAR_DEPENDENCY:
      return TaskRpcCode.CIRCULAR_DEPENDENCY;
    case ErrorCode.EXECUTOR_NOT_FOUND:
      return TaskRpcCode.EXECUTOR_NOT_FOUND;
    case ErrorCode.UNAUTHENTICATED:
    case ErrorCode.FORBIDDEN:
      return TaskRpcCode.UNAUTHORIZED;
    default:
      return jsonRpcCodeFor(code);
  }
}
