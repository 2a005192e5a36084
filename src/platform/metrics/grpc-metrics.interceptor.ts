import { status as GrpcStatus } from '@grpc/grpc-js';
import type { EndedGrpcCall } from '../grpc/grpc-call-end';
import type { Metrics } from './metrics';

/** Counts and times an ended gRPC call (ours and the A2A SDK's) by service, method and status code name. */
export function recordGrpcCall(metrics: Metrics, call: EndedGrpcCall): void {
  metrics.grpcRequests.observe(
    { service: call.service, method: call.method, code: GrpcStatus[call.code] ?? String(call.code) },
    call.milliseconds / 1000,
  );
}
