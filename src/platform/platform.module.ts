import { Global, Module } from '@nestjs/common';
import { RoutePolicies } from './http/route-policies';
import { GrpcRuntime } from './grpc/grpc-runtime';
import { ShutdownService } from './lifecycle/shutdown.service';

/** Process-wide services every module may use: HTTP route policies, gRPC runtime, shutdown state. */
@Global()
@Module({
  providers: [RoutePolicies, GrpcRuntime, ShutdownService],
  exports: [RoutePolicies, GrpcRuntime, ShutdownService],
})
export class PlatformModule {}
