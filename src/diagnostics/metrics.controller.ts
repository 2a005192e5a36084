import { Controller, Get, Header, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { RequireScopes } from '../platform/auth/auth.decorators';
import { Metrics } from '../platform/metrics/metrics';

/** Prometheus metrics on the API port (scope `internal`); METRICS_PORT serves them without a key. */
@ApiTags('internal')
@ApiSecurity('api-key')
@ApiBearerAuth()
@RequireScopes('internal')
@Controller('metrics')
export class MetricsController {
  constructor(private readonly metrics: Metrics) {}

  @Get()
  @Header('Cache-Control', 'no-store')
  @ApiOkResponse({ description: 'The Prometheus text exposition format' })
  async scrape(@Res() res: Response): Promise<void> {
    res.type(this.metrics.registry.contentType).send(await this.metrics.registry.metrics());
  }
}
