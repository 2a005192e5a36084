import type {
  Server,
  ServerUnaryCall,
  ServerWritableStream,
  ServiceDefinition,
  UntypedServiceImplementation,
  sendUnaryData,
} from '@grpc/grpc-js';
import type { JsonLimits } from '../config/app-config';
import { DomainError } from '../errors/domain-error';
import { ErrorCode } from '../errors/error-code';
import { grpcError } from '../errors/grpc-error.mapping';
import { decodedProblem } from '../http/json-limits';

/** Levels a request's own message structure adds around the JSON it carries (Structs in A2A messages). */
const MESSAGE_DEPTH_ALLOWANCE = 16;

/** What a request that failed the checks is decoded into, for its handler's wrapper to refuse. */
class RefusedRequest {
  constructor(readonly error: DomainError) {}
}

/**
 * The JSON limits and the text rule of HTTP bodies (json-limits.ts), for every gRPC service on
 * the server - ours, served by Nest, and the A2A SDK's: each request is decoded, then checked
 * (decodedProblem), before any handler sees it. A request that cannot be decoded or breaks a rule
 * is answered INVALID_ARGUMENT naming why; grpc-js would answer a decoding failure - one made
 * by nesting deep enough to exhaust the stack, say - with INTERNAL. Call once, before services
 * are added; streamed requests (none of ours) pass unchecked.
 */
export function limitGrpcInput(server: Server, limits: JsonLimits): void {
  const add = server.addService.bind(server);
  server.addService = (service, implementation) =>
    add(checkedDefinition(service, limits), refusingImplementation(service, implementation));
}

function checkedDefinition(service: ServiceDefinition, limits: JsonLimits): ServiceDefinition {
  const checked: Record<string, ServiceDefinition[string]> = {};
  for (const [name, method] of Object.entries(service)) {
    checked[name] = method.requestStream
      ? method
      : {
          ...method,
          requestDeserialize: (bytes: Buffer) => {
            let request: unknown;
            try {
              request = method.requestDeserialize(bytes);
            } catch (error) {
              return new RefusedRequest(undecodable(error));
            }
            const problem = decodedProblem(request, limits, MESSAGE_DEPTH_ALLOWANCE);
            return problem ? new RefusedRequest(problem) : request;
          },
        };
  }
  return checked as ServiceDefinition;
}

function refusingImplementation(
  service: ServiceDefinition,
  implementation: UntypedServiceImplementation,
): UntypedServiceImplementation {
  const wrapped: UntypedServiceImplementation = { ...implementation };
  for (const [name, method] of Object.entries(service)) {
    if (method.requestStream) continue;
    for (const key of new Set([name, method.originalName].filter((k): k is string => !!k))) {
      const handler = implementation[key] as ((...args: unknown[]) => unknown) | undefined;
      if (!handler) continue;
      wrapped[key] = method.responseStream
        ? (call: ServerWritableStream<unknown, unknown>) => {
            if (!(call.request instanceof RefusedRequest)) return handler(call);
            call.emit('error', grpcError(call.request.error));
            call.end();
          }
        : (call: ServerUnaryCall<unknown, unknown>, callback: sendUnaryData<unknown>) => {
            if (!(call.request instanceof RefusedRequest)) return handler(call, callback);
            callback(grpcError(call.request.error), null);
          };
    }
  }
  return wrapped;
}

function undecodable(error: unknown): DomainError {
  const why =
    error instanceof RangeError
      ? `it is nested too deeply to decode (JSON_MAX_DEPTH)`
      : `it is not a valid protobuf message of the method's type`;
  return new DomainError(ErrorCode.MALFORMED_REQUEST, `The request could not be decoded: ${why}`);
}
