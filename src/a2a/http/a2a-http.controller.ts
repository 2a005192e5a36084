import { All, Controller, Get, Next, Param, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiExcludeEndpoint, ApiOkResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { NextFunction, Request, Response } from 'express';
import { Public, RequireScopes } from '../../platform/auth/auth.decorators';
import { RateLimit } from '../../platform/rate-limit/rate-limit.decorator';
import { DEFAULT_AGENT_ID } from '../agent-profile';
import { AgentCardService } from '../card/agent-card.service';
import { AgentHost } from '../hosting/agent-host';

/**
 * The A2A endpoints of every hosted agent: JSON-RPC at /api/agents/{id}/v1, HTTP+JSON under
 * /api/agents/{id}/json, the card at /api/agents/{id}/.well-known/agent-card.json. Nest's guards
 * run first (API key with the `messages` scope, the `conversation` rate limit per key and agent);
 * then the request goes to that agent's SDK handlers.
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

  @ApiSecurity('api-key')
  @ApiBearerAuth()
  @RequireScopes('messages')
  @RateLimit('conversation')
  @All(':id/v1')
  @ApiOkResponse({ description: 'A2A JSON-RPC 2.0 (message/send, message/stream, tasks/*, ...)' })
  jsonRpc(@Param('id') id: string, @Req() req: Request, @Res() res: Response, @Next() next: NextFunction): void {
    this.host.dispatch(id, req, res, next);
  }

  @ApiSecurity('api-key')
  @ApiBearerAuth()
  @RequireScopes('messages')
  @RateLimit('conversation')
  @All([':id/json', ':id/json/*rest'])
  @ApiExcludeEndpoint()
  rest(@Param('id') id: string, @Req() req: Request, @Res() res: Response, @Next() next: NextFunction): void {
    this.host.dispatch(id, req, res, next);
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
