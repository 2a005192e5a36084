import { Controller } from '@nestjs/common';
import { GrpcMethod } from '@nestjs/microservices';
import { CurrentPrincipal } from '../auth/auth.decorators';
import { Principal } from '../auth/principal';
import { RateLimit } from '../rate-limit/rate-limit.decorator';
import { SystemInfo, SystemService } from './system.service';

/** switchboard.v1.SystemService (proto/switchboard/v1/system.proto). */
@Controller()
@RateLimit('registry')
export class SystemGrpcController {
  constructor(private readonly system: SystemService) {}

  @GrpcMethod('SystemService', 'GetInfo')
  getInfo(_request: unknown, @CurrentPrincipal() caller: Principal): SystemInfo {
    return this.system.info(caller);
  }
}
