import { isPlainObject, V03_JSON_RPC_PARAMS, V1_JSON_RPC_PARAMS } from './request-shapes';

/**
 * The first problem with a JSON-RPC request's params, or undefined: their shape (request-shapes.ts)
 * as the method's version writes it - v1.0 methods in ProtoJSON (`taskId` or `task_id`), v0.3
 * methods in plain JSON. The SDK trusts these types (a number where a task id belongs, a null
 * part, `acceptedOutputModes: {}` become its internal error -32603, or are silently coerced);
 * this answers -32602 first, naming the field.
 */
export function paramsProblem(method: string, params: unknown): string | undefined {
  const v03 = Object.hasOwn(V03_JSON_RPC_PARAMS, method) ? V03_JSON_RPC_PARAMS[method] : undefined;
  const shape = v03 ?? (Object.hasOwn(V1_JSON_RPC_PARAMS, method) ? V1_JSON_RPC_PARAMS[method] : undefined);
  if (!shape) return undefined;
  const root = params === undefined ? {} : params;
  if (!isPlainObject(root)) return 'params must be an object';
  return shape.check(root, '', !v03);
}
