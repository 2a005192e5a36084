import { Controller } from '@nestjs/common';
import { GrpcMethod } from '@nestjs/microservices';
import { CurrentPrincipal } from '../auth/auth.decorators';
import { Principal } from '../auth/principal';
import { SystemInfo, SystemService } from './system.service';

/**
 * switchboard.v1.SystemService (proto/switchboard/v1/system.proto). Read-only and answered from
 * memory, so not rate limited (any valid key is still required): it is the smoke test of CI jobs,
 * probes and dashboards, which must not use up - or be refused by - a key's `registry` budget.
 */
@Controller()
export class SystemGrpcController {
  constructor(private readonly system: SystemService) {}

  @GrpcMethod('SystemService', 'GetInfo')
  getInfo(_request: unknown, @CurrentPrincipal() caller: Principal): SystemInfo {
    return this.system.info(caller);
  }
}
