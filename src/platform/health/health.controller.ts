import { Controller, Get, Res, ServiceUnavailableException } from '@nestjs/common';
import { ApiOkResponse, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import { HealthCheckResult, HealthCheckService } from '@nestjs/terminus';
import type { Response } from 'express';
import { Public } from '../auth/auth.decorators';
import { HealthChecks } from './health-checks';

/** Kubernetes probes. Public, not rate limited, not logged. */
@ApiTags('health')
@Public()
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly checks: HealthChecks,
  ) {}

  /** The process is alive and serving HTTP. */
  @Get('live')
  @ApiOkResponse({ description: '{"status":"ok"}' })
  live(): Promise<HealthCheckResult> {
    return this.health.check([]);
  }

  /** The backends answer and the process is not shutting down; 503 with the reasons otherwise. */
  @Get('ready')
  @ApiOkResponse({ description: 'Ready: every check is up' })
  @ApiServiceUnavailableResponse({ description: 'Not ready: `error` says which check failed and why' })
  async ready(@Res({ passthrough: true }) res: Response): Promise<HealthCheckResult> {
    try {
      return await this.health.check(this.checks.readiness());
    } catch (error) {
      if (!(error instanceof ServiceUnavailableException)) throw error;
      res.status(503);
      return error.getResponse() as HealthCheckResult;
    }
  }
}
