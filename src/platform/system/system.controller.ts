import { Controller, Get } from '@nestjs/common';
import { ApiBearerAuth, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '../auth/auth.decorators';
import { Principal } from '../auth/principal';
import { RateLimit } from '../rate-limit/rate-limit.decorator';
import { SystemInfo, SystemService } from './system.service';

@ApiTags('system')
@ApiSecurity('api-key')
@ApiBearerAuth()
@RateLimit('registry')
@Controller('api/system')
export class SystemController {
  constructor(private readonly system: SystemService) {}

  /** Version, uptime, backends and the calling key (any valid key). */
  @Get()
  info(@CurrentPrincipal() caller: Principal): SystemInfo {
    return this.system.info(caller);
  }
}
