import { ApiError, post } from './http';

let nextId = 1;

interface RpcReply<T> {
  result?: T;
  error?: { code: number; message: string; data?: unknown };
}

/** One JSON-RPC 2.0 call; a JSON-RPC error becomes an ApiError with the HTTP status 200. */
export async function rpc<T>(path: string, method: string, params: unknown): Promise<T> {
  const reply = await post<RpcReply<T>>(path, { jsonrpc: '2.0', id: nextId++, method, params });
  if (reply.error) throw new ApiError(200, `${reply.error.message} (${reply.error.code})`, reply.error);
  return reply.result as T;
}

export function rpcId(): number {
  return nextId++;
}
