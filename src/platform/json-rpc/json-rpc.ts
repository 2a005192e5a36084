import { DomainError } from '../errors/domain-error';
import { ErrorCode } from '../errors/error-code';
import {
  JsonRpcCode,
  JsonRpcCodeTable,
  JsonRpcErrorResponse,
  JsonRpcId,
  jsonRpcErrorResponse,
} from '../errors/json-rpc-error.mapping';
import { toDomainError } from '../errors/to-domain-error';

export interface JsonRpcRequest {
  jsonrpc: '2.0';
  /** Absent: a notification (no reply). */
  id?: JsonRpcId;
  method: string;
  params?: unknown;
}

export interface JsonRpcSuccess {
  jsonrpc: '2.0';
  id: JsonRpcId;
  result: unknown;
}

export type JsonRpcReply = JsonRpcSuccess | JsonRpcErrorResponse;

/** Why a value is not one JSON-RPC 2.0 request object, or undefined if it is one. */
export function envelopeProblem(body: unknown): string | undefined {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return 'the body must be a JSON-RPC request object';
  const request = body as Record<string, unknown>;
  if (request.jsonrpc !== '2.0') return 'jsonrpc must be "2.0"';
  if (typeof request.method !== 'string' || request.method === '') return 'method must be a non-empty string';
  if (!isValidId(request.id) && request.id !== undefined) return 'id must be a string, a number or null';
  if (request.params !== undefined && (typeof request.params !== 'object' || request.params === null)) {
    return 'params must be an object or an array';
  }
  return undefined;
}

export function isValidId(id: unknown): id is JsonRpcId {
  return id === null || typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id));
}

/** The request's id if it has a usable one, else null (as JSON-RPC says for unreadable requests). */
export function idOf(body: unknown): JsonRpcId {
  const id = body && typeof body === 'object' && !Array.isArray(body) ? (body as { id?: unknown }).id : undefined;
  return isValidId(id) ? id : null;
}

export function jsonRpcError(id: JsonRpcId, code: number, message: string): JsonRpcErrorResponse {
  return { jsonrpc: '2.0', id, error: { code, message } };
}

/** The answer to a request that declared a JSON body and sent none (see sentEmptyBody): it is not JSON. */
export function emptyBodyError(): JsonRpcErrorResponse {
  return jsonRpcError(null, JsonRpcCode.PARSE_ERROR, 'Parse error: the request body is empty');
}

/** A handler's answer that is a stream: `result` goes first, in the JSON-RPC envelope. */
export class StreamedResult<T> {
  constructor(
    readonly result: unknown,
    readonly events: AsyncIterable<T>,
  ) {}
}

export type JsonRpcHandler<C> = (params: unknown, call: C) => Promise<unknown>;

const MAX_BATCH = 100;

/**
 * One JSON-RPC 2.0 endpoint: envelope checks first, then the method table. Every request gets a
 * `{jsonrpc, id, result|error}` reply (notifications none); batches are answered as arrays.
 * Errors are mapped with the endpoint's code table, so a client mistake is never -32603.
 */
export class JsonRpcDispatcher<C> {
  constructor(
    private readonly methods: ReadonlyMap<string, JsonRpcHandler<C>>,
    private readonly codes: JsonRpcCodeTable,
  ) {}

  /** Answers a parsed body: one reply, an array of them (batch), or null (only notifications). */
  async dispatch(body: unknown, call: C): Promise<JsonRpcReply | JsonRpcReply[] | StreamedResult<unknown> | null> {
    if (Array.isArray(body)) {
      if (body.length === 0) return jsonRpcError(null, JsonRpcCode.INVALID_REQUEST, 'Invalid Request: empty batch');
      if (body.length > MAX_BATCH)
        return jsonRpcError(null, JsonRpcCode.INVALID_REQUEST, `Invalid Request: at most ${MAX_BATCH} calls per batch`);
      const replies = await Promise.all(body.map((item) => this.one(item, call, false)));
      const answered = replies.filter(
        (reply): reply is JsonRpcReply => reply !== null && !(reply instanceof StreamedResult),
      );
      return answered.length > 0 ? answered : null;
    }
    return this.one(body, call, true);
  }

  private async one(
    body: unknown,
    call: C,
    mayStream: boolean,
  ): Promise<JsonRpcReply | StreamedResult<unknown> | null> {
    const problem = envelopeProblem(body);
    if (problem) return jsonRpcError(idOf(body), JsonRpcCode.INVALID_REQUEST, `Invalid Request: ${problem}`);
    const request = body as JsonRpcRequest;
    const id = request.id ?? null;
    const handler = this.methods.get(request.method);
    try {
      if (!handler) throw new DomainError(ErrorCode.METHOD_NOT_FOUND, `Method not found: ${request.method}`);
      const result = await handler(request.params ?? {}, call);
      if (result instanceof StreamedResult) {
        if (mayStream) return result;
        throw DomainError.validation([{ field: 'use_streaming', reason: 'is not available inside a batch' }]);
      }
      return request.id === undefined ? null : { jsonrpc: '2.0', id, result };
    } catch (error) {
      return request.id === undefined ? null : jsonRpcErrorResponse(toDomainError(error), id, this.codes);
    }
  }
}
