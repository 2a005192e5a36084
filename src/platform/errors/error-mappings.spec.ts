import { BadRequestException, HttpStatus, NotFoundException, PayloadTooLargeException } from '@nestjs/common';
import { status as GrpcStatus } from '@grpc/grpc-js';
import { DomainError } from './domain-error';
import { ErrorCode } from './error-code';
import { grpcError, grpcStatusFor } from './grpc-error.mapping';
import { httpErrorBody, httpStatusFor } from './http-error.mapping';
import { JsonRpcCode, jsonRpcCodeFor, jsonRpcErrorResponse } from './json-rpc-error.mapping';
import { toDomainError } from './to-domain-error';

const ALL_CODES = Object.values(ErrorCode);

describe('error mapping tables', () => {
  it.each(ALL_CODES)('maps %s on every transport', (code) => {
    expect(httpStatusFor(code)).toBeGreaterThanOrEqual(400);
    expect(Number.isInteger(jsonRpcCodeFor(code))).toBe(true);
    expect(Object.values(GrpcStatus)).toContain(grpcStatusFor(code));
  });

  it('answers client mistakes with 4xx, never 5xx', () => {
    const clientMistakes = [
      ErrorCode.MALFORMED_REQUEST,
      ErrorCode.INVALID_REQUEST,
      ErrorCode.VALIDATION_FAILED,
      ErrorCode.METHOD_NOT_FOUND,
      ErrorCode.UNSUPPORTED_MEDIA_TYPE,
      ErrorCode.PAYLOAD_TOO_LARGE,
      ErrorCode.UNAUTHENTICATED,
      ErrorCode.FORBIDDEN,
      ErrorCode.NOT_FOUND,
      ErrorCode.CONFLICT,
      ErrorCode.CONCURRENT_UPDATE,
      ErrorCode.INVALID_STATE,
      ErrorCode.PRECONDITION_FAILED,
      ErrorCode.RATE_LIMITED,
    ];
    for (const code of clientMistakes) {
      expect(httpStatusFor(code)).toBeLessThan(500);
      expect(jsonRpcCodeFor(code)).not.toBe(JsonRpcCode.INTERNAL_ERROR);
      expect(grpcStatusFor(code)).not.toBe(GrpcStatus.INTERNAL);
    }
  });

  it('uses the JSON-RPC reserved codes for protocol errors', () => {
    expect(jsonRpcCodeFor(ErrorCode.MALFORMED_REQUEST)).toBe(-32700);
    expect(jsonRpcCodeFor(ErrorCode.INVALID_REQUEST)).toBe(-32600);
    expect(jsonRpcCodeFor(ErrorCode.METHOD_NOT_FOUND)).toBe(-32601);
    expect(jsonRpcCodeFor(ErrorCode.VALIDATION_FAILED)).toBe(-32602);
    expect(jsonRpcCodeFor(ErrorCode.INTERNAL)).toBe(-32603);
  });

  it('builds the HTTP body, the JSON-RPC error object and the gRPC error from one error', () => {
    const error = new DomainError(ErrorCode.RATE_LIMITED, 'slow down', { retryAfterSeconds: 7, details: { limit: 3 } });
    expect(httpErrorBody(error, 'req-1')).toEqual({
      statusCode: 429,
      code: 'RATE_LIMITED',
      message: 'slow down',
      details: { limit: 3 },
      requestId: 'req-1',
    });
    expect(jsonRpcErrorResponse(error, 5)).toEqual({
      jsonrpc: '2.0',
      id: 5,
      error: { code: JsonRpcCode.RATE_LIMITED, message: 'slow down', data: { code: 'RATE_LIMITED', limit: 3 } },
    });
    const grpc = grpcError(error);
    expect(grpc.code).toBe(GrpcStatus.RESOURCE_EXHAUSTED);
    expect(grpc.metadata.get('retry-after')).toEqual(['7']);
  });

  it('names each invalid field in a validation error', () => {
    const error = DomainError.validation([
      { field: 'name', reason: 'must be a string' },
      { field: 'scopes', reason: 'must not be empty' },
    ]);
    expect(error.message).toBe('Invalid request: name must be a string; scopes must not be empty');
    expect(error.details).toEqual({
      fields: [expect.objectContaining({ field: 'name' }), expect.objectContaining({ field: 'scopes' })],
    });
  });
});

describe('toDomainError', () => {
  it('keeps the meaning of framework errors', () => {
    expect(toDomainError(new NotFoundException('Cannot GET /x'))).toMatchObject({
      code: 'NOT_FOUND',
      message: 'Cannot GET /x',
    });
    expect(toDomainError(new BadRequestException(['a is bad', 'b is bad']))).toMatchObject({
      code: 'VALIDATION_FAILED',
      message: 'a is bad; b is bad',
    });
    expect(toDomainError(new PayloadTooLargeException()).code).toBe(ErrorCode.PAYLOAD_TOO_LARGE);
  });

  it('recognises body-parser errors', () => {
    const parse = Object.assign(new SyntaxError('Unexpected token'), {
      expose: true,
      status: 400,
      type: 'entity.parse.failed',
    });
    const large = Object.assign(new Error('too large'), { expose: true, status: 413, type: 'entity.too.large' });
    expect(toDomainError(parse).code).toBe(ErrorCode.MALFORMED_REQUEST);
    expect(toDomainError(large).code).toBe(ErrorCode.PAYLOAD_TOO_LARGE);
  });

  it('turns database outages into SERVICE_UNAVAILABLE', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    const terminated = new Error('Connection terminated unexpectedly');
    expect(toDomainError(refused)).toMatchObject({ code: 'SERVICE_UNAVAILABLE', retryAfterSeconds: 1 });
    expect(toDomainError(terminated).code).toBe(ErrorCode.SERVICE_UNAVAILABLE);
  });

  it('hides the details of unknown errors', () => {
    const error = toDomainError(new Error('secret internals at /srv/app.ts:12'));
    expect(error).toMatchObject({ code: 'INTERNAL', message: 'Internal server error' });
    expect(httpStatusFor(error.code)).toBe(HttpStatus.INTERNAL_SERVER_ERROR);
  });
});
