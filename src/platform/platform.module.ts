import { Global, Module } from '@nestjs/common';
import { HttpErrorResponder } from './errors/http-error.responder';
import { RoutePolicies } from './http/route-policies';
import { GrpcRuntime } from './grpc/grpc-runtime';
import { ShutdownService } from './lifecycle/shutdown.service';
import { HttpEdge } from './http/http-edge';
import { HttpMetrics } from './metrics/http-metrics';

/** Process-wide services every module may use: HTTP route policies, errors and per-request bookkeeping, gRPC runtime, shutdown state. */
@Global()
@Module({
  providers: [RoutePolicies, HttpErrorResponder, HttpMetrics, HttpEdge, GrpcRuntime, ShutdownService],
  exports: [RoutePolicies, HttpErrorResponder, HttpEdge, GrpcRuntime, ShutdownService],
})
export class PlatformModule {}
