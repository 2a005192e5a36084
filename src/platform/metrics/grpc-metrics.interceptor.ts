import { ServerInterceptingCall, type ServerInterceptor } from '@grpc/grpc-js';
import { status as GrpcStatus } from '@grpc/grpc-js';
import type { Metrics } from './metrics';

/** A grpc-js server interceptor that times every call (ours and the A2A SDK's) by service, method and status. */
export function grpcMetricsInterceptor(metrics: Metrics): ServerInterceptor {
  return (descriptor, call) => {
    const [, service = 'unknown', method = 'unknown'] = /^\/([^/]+)\/([^/]+)$/.exec(descriptor.path) ?? [];
    const stop = metrics.grpcRequests.startTimer({ service, method });
    return new ServerInterceptingCall(call, {
      sendStatus: (status, next) => {
        stop({ code: GrpcStatus[status.code] ?? String(status.code) });
        next(status);
      },
    });
  };
}
