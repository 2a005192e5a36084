import { Body, Controller, Delete, Get, HttpCode, Param, Post, Req } from '@nestjs/common';
import { ApiBearerAuth, ApiNoContentResponse, ApiOkResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { HubEndpointsResolver } from '../a2a/card/hub-endpoints';
import { RequireScopes } from '../platform/auth/auth.decorators';
import { RateLimit } from '../platform/rate-limit/rate-limit.decorator';
import { AgentRecordResponse, ExtendedAgentRecordResponse } from './dto/agent.response';
import { RegisterAgentDto, ValidateAgentDto } from './dto/register-agent.dto';
import { ValidationReportResponse } from './dto/validation-report.response';
import { RegistryService } from './registry.service';

/** The agent registry over REST (policy `registry`). */
@ApiTags('registry')
@ApiSecurity('api-key')
@ApiBearerAuth()
@RateLimit('registry')
@Controller('api/agents')
export class RegistryController {
  constructor(
    private readonly registry: RegistryService,
    private readonly endpoints: HubEndpointsResolver,
  ) {}

  /** The hub's A2A cards for every agent it hosts (v0.3 shape), the orchestrator first. */
  @Get()
  @RequireScopes('agents:read')
  @ApiOkResponse({ description: 'Array of A2A agent cards' })
  list(@Req() req: Request): unknown[] {
    return this.registry.listCards(this.endpoints.fromRequest(req));
  }

  /** Resolves a remote agent's card and registers it. */
  @Post()
  @RequireScopes('agents:write')
  register(@Body() body: RegisterAgentDto): Promise<AgentRecordResponse> {
    return this.registry.register({ baseUrl: body.base_url, id: body.id, auth: body.auth });
  }

  /** Fetches and checks a card without registering it. */
  @Post('validate')
  @HttpCode(200)
  @RequireScopes('agents:write')
  validate(@Body() body: ValidateAgentDto): Promise<ValidationReportResponse> {
    return this.registry.validate(body.base_url);
  }

  @Get(':id')
  @RequireScopes('agents:read')
  get(@Param('id') id: string, @Req() req: Request): Promise<AgentRecordResponse> {
    return this.registry.get(id, this.endpoints.fromRequest(req));
  }

  /** The record with how the hub authenticates to the agent and its last check (never the secret). */
  @Get(':id/extended')
  @RequireScopes('admin')
  getExtended(@Param('id') id: string, @Req() req: Request): Promise<ExtendedAgentRecordResponse> {
    return this.registry.getExtended(id, this.endpoints.fromRequest(req));
  }

  /** Re-reads the agent's card. */
  @Post(':id/refresh')
  @HttpCode(200)
  @RequireScopes('agents:write')
  refresh(@Param('id') id: string): Promise<AgentRecordResponse> {
    return this.registry.refresh(id);
  }

  @Delete(':id')
  @HttpCode(204)
  @RequireScopes('agents:write')
  @ApiNoContentResponse()
  remove(@Param('id') id: string): Promise<void> {
    return this.registry.remove(id);
  }
}

/** `GET /agents`: where the Home Assistant integration looks for cards when pointed at the hub's root. */
@ApiTags('registry')
@ApiSecurity('api-key')
@ApiBearerAuth()
@RateLimit('registry')
@Controller('agents')
export class AgentCardsAliasController {
  constructor(
    private readonly registry: RegistryService,
    private readonly endpoints: HubEndpointsResolver,
  ) {}

  @Get()
  @RequireScopes('agents:read')
  list(@Req() req: Request): unknown[] {
    return this.registry.listCards(this.endpoints.fromRequest(req));
  }
}
