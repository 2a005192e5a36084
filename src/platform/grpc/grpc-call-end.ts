import {
  Metadata,
  ServerInterceptingCall,
  type ServerInterceptor,
  ServerListenerBuilder,
  status as GrpcStatus,
} from '@grpc/grpc-js';
import { performance } from 'node:perf_hooks';

/** What is known of a gRPC call once it has ended, for metrics and the access log. */
export interface EndedGrpcCall {
  /** The full method path, `/package.Service/Method`. */
  path: string;
  service: string;
  method: string;
  /** The status the call ended with: CANCELLED when the client gave up, DEADLINE_EXCEEDED when its deadline passed. */
  code: GrpcStatus;
  milliseconds: number;
  /** The client's address as grpc-js gives it (`ipv4:127.0.0.1:53012`). */
  peer: string;
  metadata: Metadata;
}

/**
 * A grpc-js server interceptor that reports every call (ours and the A2A SDK's) once, when it
 * ends. grpc-js tells interceptors of a client's cancel through `onCancel` and then lets the
 * handler still send an OK status it never delivers; so a call cancelled before its status is
 * reported as CANCELLED (DEADLINE_EXCEEDED if its deadline had passed), and the later status
 * (and the `onCancel` grpc-js also sends after every completed call) is ignored.
 */
export function grpcCallEndInterceptor(onEnd: (call: EndedGrpcCall) => void): ServerInterceptor {
  return (descriptor, call) => {
    const started = performance.now();
    const [, service = 'unknown', method = 'unknown'] = /^\/([^/]+)\/([^/]+)$/.exec(descriptor.path) ?? [];
    let metadata: Metadata | undefined;
    let ended = false;
    const end = (code: GrpcStatus): void => {
      if (ended) return;
      ended = true;
      onEnd({
        path: descriptor.path,
        service,
        method,
        code,
        milliseconds: performance.now() - started,
        peer: call.getPeer(),
        metadata: metadata ?? new Metadata(),
      });
    };
    const cancelled = (): GrpcStatus => {
      const deadline = call.getDeadline();
      const passed = deadline instanceof Date ? deadline.getTime() : deadline;
      return Number.isFinite(passed) && passed <= Date.now() ? GrpcStatus.DEADLINE_EXCEEDED : GrpcStatus.CANCELLED;
    };
    return new ServerInterceptingCall(call, {
      start: (next) =>
        next(
          new ServerListenerBuilder()
            .withOnReceiveMetadata((received, nextMetadata) => {
              metadata = received;
              nextMetadata(received);
            })
            .withOnCancel(() => end(cancelled()))
            .build(),
        ),
      sendStatus: (status, next) => {
        end(status.code);
        next(status);
      },
    });
  };
}
