import { Global, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { HttpErrorResponder } from './errors/http-error.responder';
import { GrpcRuntime } from './grpc/grpc-runtime';
import { HttpEdge } from './http/http-edge';
import { JsonBodyParser } from './http/json-body.middleware';
import { RoutePolicies } from './http/route-policies';
import { ShutdownService } from './lifecycle/shutdown.service';
import { HttpMetrics } from './metrics/http-metrics';

/**
 * Process-wide services every module may use: HTTP route policies and error answers, gRPC
 * runtime, shutdown state; and the per-request bookkeeping bootstrap mounts (HttpEdge).
 */
@Global()
@Module({
  imports: [DiscoveryModule],
  providers: [RoutePolicies, HttpErrorResponder, HttpMetrics, HttpEdge, GrpcRuntime, ShutdownService, JsonBodyParser],
  exports: [RoutePolicies, HttpErrorResponder, GrpcRuntime, ShutdownService, JsonBodyParser],
})
export class PlatformModule {}
