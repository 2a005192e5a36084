import { Controller } from '@nestjs/common';
import { GrpcMethod } from '@nestjs/microservices';
import { CurrentPrincipal } from '../auth/auth.decorators';
import { Principal } from '../auth/principal';
import { toProtoDuration, toProtoEnum } from '../grpc/grpc-wkt';
import { SystemInfo, SystemService } from './system.service';

/**
 * switchboard.v1.SystemService (proto/switchboard/v1/system.proto) and its v2. Read-only and answered from
 * memory, so not rate limited (any valid key is still required): it is the smoke test of CI jobs,
 * probes and dashboards, which must not use up - or be refused by - a key's `registry` budget.
 */
@Controller()
export class SystemGrpcController {
  constructor(private readonly system: SystemService) {}

  @GrpcMethod('switchboard.v1.SystemService', 'GetInfo')
  getInfo(_request: unknown, @CurrentPrincipal() caller: Principal): SystemInfo {
    return this.system.info(caller);
  }

  /** switchboard.v2.SystemService (proto/switchboard/v2/system.proto): enums and a Duration. */
  @GrpcMethod('switchboard.v2.SystemService', 'GetInfo')
  getInfoV2(_request: unknown, @CurrentPrincipal() caller: Principal) {
    const { uptime_seconds, database, kv, ...info } = this.system.info(caller);
    return {
      ...info,
      uptime: toProtoDuration(uptime_seconds),
      database: toProtoEnum('DATABASE_MODE', database),
      kv: toProtoEnum('KV_BACKEND', kv),
    };
  }
}
