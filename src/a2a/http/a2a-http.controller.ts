import { Controller, Get, Param, Req, Res } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Public } from '../../platform/auth/auth.decorators';
import { DEFAULT_AGENT_ID } from '../agent-profile';
import { AgentCardService } from '../card/agent-card.service';
import { AgentHost } from '../hosting/agent-host';

/**
 * The cards of the hosted agents. (Their JSON-RPC and HTTP+JSON endpoints are served ahead of
 * Nest's router by A2aHttpLane; the OpenAPI document describes them through a2aOpenApiPaths.)
 */
@ApiTags('a2a')
@Controller('api/agents')
export class A2aHttpController {
  constructor(
    private readonly host: AgentHost,
    private readonly cards: AgentCardService,
  ) {}

  /** The agent's card: v1.0 with `A2A-Version: 1.0`, else v0.3. Public, as A2A discovery is. */
  @Public()
  @Get(':id/.well-known/agent-card.json')
  @ApiOkResponse({ description: 'A2A agent card (v0.3 unless A2A-Version: 1.0)' })
  card(@Param('id') id: string, @Req() req: Request, @Res() res: Response): void {
    this.cards.serve(this.host.require(id), req, res);
  }
}

/** The hub's own card - the default agent's - at the well-known paths, including the legacy ones. */
@ApiTags('a2a')
@Controller('.well-known')
export class HubCardController {
  constructor(
    private readonly host: AgentHost,
    private readonly cards: AgentCardService,
  ) {}

  @Public()
  @Get(['agent-card.json', 'agent.json', 'agent-card'])
  @ApiOkResponse({ description: "The hub's A2A agent card (the orchestrator's)" })
  card(@Req() req: Request, @Res() res: Response): void {
    this.cards.serve(this.host.require(DEFAULT_AGENT_ID), req, res);
  }
}
