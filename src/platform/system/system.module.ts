import { Module } from '@nestjs/common';
import { SystemController } from './system.controller';
import { SystemGrpcController } from './system.grpc.controller';
import { SystemService } from './system.service';

@Module({
  controllers: [SystemController, SystemGrpcController],
  providers: [SystemService],
})
export class SystemModule {}
