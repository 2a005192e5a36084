import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { AuthCoreModule } from '../auth/auth-core.module';
import { GrpcLane } from './grpc-lane';
import { GrpcMethodCatalog } from './grpc-method-catalog';

/** The hub's unary gRPC methods answered ahead of Nest's microservice pipeline (GrpcLane). */
@Module({
  imports: [DiscoveryModule, AuthCoreModule],
  providers: [GrpcMethodCatalog, GrpcLane],
})
export class GrpcLaneModule {}
