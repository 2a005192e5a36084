import { Controller, Delete, Get, HttpCode, Param, ParseUUIDPipe, Query, Res } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiSecurity,
  ApiServiceUnavailableResponse,
  ApiTags,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { RequireScopes } from '../platform/auth/auth.decorators';
import { DiagnosticsService } from './diagnostics.service';
import { RoutingLogQuery } from './dto/routing-log.query';
import { LearnedRoutesQuery } from './dto/learned-routes.query';
import { toLearnedRouteView } from './dto/learned-route.view';
import { LearnedRoutes, MAX_LEARNED_PER_OWNER } from '../orchestration/learning/learned-routes';

/** What the hub says about itself, for operators (scope `internal`; not rate limited: dashboards poll it). */
@ApiTags('internal')
@ApiSecurity('api-key')
@ApiBearerAuth()
@RequireScopes('internal')
@Controller('internal')
export class DiagnosticsController {
  constructor(
    private readonly diagnostics: DiagnosticsService,
    private readonly learned: LearnedRoutes,
  ) {}

  @Get('orchestration/health')
  @ApiOkResponse({ description: 'Usable: status ok, or degraded with warnings' })
  @ApiServiceUnavailableResponse({ description: 'Not usable: status down, with the reasons' })
  async health(@Res({ passthrough: true }) res: Response) {
    const report = await this.diagnostics.health();
    if (report.status === 'down') res.status(503);
    return report;
  }

  @Get('orchestration/routing-log')
  @ApiOkResponse({ description: '{items, limit, next_cursor}: routing decisions, newest first' })
  routingLog(@Query() query: RoutingLogQuery) {
    return this.diagnostics.routingLog(query);
  }

  @Get('orchestration/learned-routes')
  @ApiOkResponse({ description: '{items}: requests settled by naming an agent, newest first' })
  async learnedRoutes(@Query() query: LearnedRoutesQuery) {
    const routes = await this.learned.list(query.owner, query.limit ?? MAX_LEARNED_PER_OWNER);
    return { items: routes.map(toLearnedRouteView) };
  }

  @Delete('orchestration/learned-routes/:id')
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'Forgotten: the request is routed as any other again' })
  async forgetLearnedRoute(@Param('id', ParseUUIDPipe) id: string): Promise<void> {
    await this.learned.remove(id);
  }

  @Get('agents/:id/resolution')
  @ApiOkResponse({ description: 'How the hub resolves the agent: source, endpoint, card, last check' })
  resolution(@Param('id') id: string) {
    return this.diagnostics.resolution(id);
  }
}
