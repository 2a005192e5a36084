import { Controller } from '@nestjs/common';
import { GrpcMethod } from '@nestjs/microservices';
import { HubEndpointsResolver } from '../a2a/card/hub-endpoints';
import { RequireScopes } from '../platform/auth/auth.decorators';
import { RateLimit } from '../platform/rate-limit/rate-limit.decorator';
import { validateInput, withoutEmpty } from '../platform/validation/validate-input';
import { AgentRecordResponse, ExtendedAgentRecordResponse } from './dto/agent.response';
import { RegisterAgentDto, ValidateAgentDto } from './dto/register-agent.dto';
import { RegistryService } from './registry.service';

interface AgentRef {
  agent_id: string;
}

/** switchboard.v1.RegistryService (proto/switchboard/v1/registry.proto): the registry over gRPC. */
@Controller()
@RateLimit('registry')
export class RegistryGrpcController {
  constructor(
    private readonly registry: RegistryService,
    private readonly endpoints: HubEndpointsResolver,
  ) {}

  @GrpcMethod('RegistryService', 'ListAgentCards')
  @RequireScopes('agents:read')
  listAgentCards() {
    return { cards_json: this.registry.listCards(this.endpoints.configured()).map((card) => JSON.stringify(card)) };
  }

  @GrpcMethod('RegistryService', 'GetAgent')
  @RequireScopes('agents:read')
  async getAgent(request: AgentRef) {
    return toAgent(await this.registry.get(request.agent_id, this.endpoints.configured()));
  }

  @GrpcMethod('RegistryService', 'GetAgentExtended')
  @RequireScopes('admin')
  async getAgentExtended(request: AgentRef) {
    const record = await this.registry.getExtended(request.agent_id, this.endpoints.configured());
    return toExtended(record);
  }

  @GrpcMethod('RegistryService', 'RegisterAgent')
  @RequireScopes('agents:write')
  async registerAgent(request: unknown) {
    const input = validateInput(RegisterAgentDto, withoutEmpty(request));
    return toAgent(await this.registry.register({ baseUrl: input.base_url, id: input.id, auth: input.auth }));
  }

  @GrpcMethod('RegistryService', 'ValidateAgentCard')
  @RequireScopes('agents:write')
  async validateAgentCard(request: unknown) {
    const report = await this.registry.validate(validateInput(ValidateAgentDto, withoutEmpty(request)).base_url);
    return {
      ...report,
      name: report.name ?? '',
      url: report.url ?? '',
      protocol_version: report.protocol_version ?? '',
    };
  }

  @GrpcMethod('RegistryService', 'RefreshAgent')
  @RequireScopes('agents:write')
  async refreshAgent(request: AgentRef) {
    return toAgent(await this.registry.refresh(request.agent_id));
  }

  @GrpcMethod('RegistryService', 'DeleteAgent')
  @RequireScopes('agents:write')
  async deleteAgent(request: AgentRef) {
    await this.registry.remove(request.agent_id);
    return {};
  }
}

function toAgent(record: AgentRecordResponse) {
  const { card, last_seen_at, ...rest } = record;
  return { ...rest, card_json: JSON.stringify(card), last_seen_at: last_seen_at ?? '' };
}

function toExtended(record: ExtendedAgentRecordResponse) {
  const { auth_header, has_secret, card_url, last_check_error, updated_at, ...agent } = record;
  return {
    agent: toAgent(agent),
    auth_header: auth_header ?? '',
    has_secret,
    card_url: card_url ?? '',
    last_check_error: last_check_error ?? '',
    updated_at,
  };
}
