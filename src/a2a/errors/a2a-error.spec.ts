import { A2AError, restStatusFor, toJsonRpcError, toRestErrorBody } from '@a2a-js/sdk/errors';
import { grpcStatusFor as sdkGrpcStatusFor } from '@a2a-js/sdk/errors/grpc';
import { toLegacyHTTPError } from '@a2a-js/sdk/compat/v0_3/server';
import { DomainError } from '../../platform/errors/domain-error';
import { ErrorCode } from '../../platform/errors/error-code';
import { grpcStatusFor } from '../../platform/errors/grpc-error.mapping';
import { httpStatusFor } from '../../platform/errors/http-error.mapping';
import { jsonRpcCodeFor } from '../../platform/errors/json-rpc-error.mapping';
import { a2aErrorOf } from './a2a-error';
import { a2aErrorKindFor } from './a2a-error.mapping';

/** The A2A JSON-RPC codes of the SDK's errors the table uses. */
const A2A_CODES: Record<string, number> = {
  TaskNotFoundError: -32001,
  UnsupportedOperationError: -32004,
  ContentTypeNotSupportedError: -32005,
  RequestMalformedError: -32602,
};

/** Every domain error, as each transport's SDK serializer writes it. */
describe('the A2A error table', () => {
  const codes = Object.values(ErrorCode);
  const errorOf = (code: ErrorCode) => new DomainError(code, `it went wrong: ${code}`, { details: { task_id: 't-1' } });

  it.each(codes)('%s on JSON-RPC: its A2A code (or the hub one), its message, its code in data', (code) => {
    const kind = a2aErrorKindFor(code);
    const error = a2aErrorOf(errorOf(code), 'jsonrpc');
    const v1 = toJsonRpcError(error);
    expect(v1.code).toBe(kind === 'hub' ? jsonRpcCodeFor(code) : A2A_CODES[kind]);
    if (code !== ErrorCode.INTERNAL) expect(v1.code).not.toBe(-32603); // never a generic internal error
    expect(v1.message).toBe(`it went wrong: ${code}`);
    expect(v1.data).toEqual([
      expect.objectContaining({
        '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
        metadata: { code, task_id: 't-1' },
      }),
    ]);
    const v03 = toLegacyHTTPError(error) as { code: number; data?: unknown };
    expect(v03).toMatchObject({ code: v1.code, data: { code, task_id: 't-1' } });
  });

  it.each(codes)('%s on HTTP+JSON and gRPC: the platform status, the ErrorInfo', (code) => {
    const rest = a2aErrorOf(errorOf(code), 'rest');
    expect(restStatusFor(rest)).toBe(httpStatusFor(code));
    const body = toRestErrorBody(rest, restStatusFor(rest));
    expect(body.error.details[0]).toMatchObject({ metadata: { code } });
    expect(sdkGrpcStatusFor(a2aErrorOf(errorOf(code), 'grpc'))).toBe(grpcStatusFor(code));
  });

  it('keeps A2A meanings: a missing task is TaskNotFound (-32001), a bad request -32602', () => {
    expect(toJsonRpcError(a2aErrorOf(errorOf(ErrorCode.NOT_FOUND), 'jsonrpc')).code).toBe(-32001);
    expect(toJsonRpcError(a2aErrorOf(errorOf(ErrorCode.VALIDATION_FAILED), 'jsonrpc')).code).toBe(-32602);
    expect(toJsonRpcError(a2aErrorOf(errorOf(ErrorCode.RATE_LIMITED), 'jsonrpc')).code).toBe(-32029);
  });

  it('hands callers in process an A2A error with the data', () => {
    const error = a2aErrorOf(errorOf(ErrorCode.CONFLICT), 'in-process') as A2AError & { data: unknown };
    expect(error).toBeInstanceOf(A2AError);
    expect(error.data).toEqual({ code: 'CONFLICT', task_id: 't-1' });
  });
});
