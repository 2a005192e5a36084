import { Controller, Get, Header, Req } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { HubEndpointsResolver } from '../../a2a/card/hub-endpoints';
import { Public } from '../../platform/auth/auth.decorators';
import { AppConfig } from '../../platform/config/app-config';
import { agentsManifest, agentsText } from './agents-manifest';

/** Discovery: /.well-known/agents.json and its plain-text twin. */
@Public()
@ApiTags('commerce')
@Controller('.well-known')
export class AgentsManifestController {
  constructor(
    private readonly endpoints: HubEndpointsResolver,
    private readonly config: AppConfig,
  ) {}

  @Get('agents.json')
  @Header('Content-Type', 'application/json; charset=utf-8')
  @ApiOkResponse({ description: 'The agents.json manifest of the shop' })
  manifest(@Req() req: Request) {
    return agentsManifest(this.endpoints.httpBaseOf(req), this.config);
  }

  @Get('agents.txt')
  @Header('Content-Type', 'text/plain; charset=utf-8')
  @ApiOkResponse({ description: 'A plain-text summary pointing to agents.json' })
  text(@Req() req: Request): string {
    return agentsText(this.endpoints.httpBaseOf(req), this.config);
  }
}
