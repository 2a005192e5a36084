import { Controller } from '@nestjs/common';
import { GrpcMethod } from '@nestjs/microservices';
import { HubEndpointsResolver } from '../a2a/card/hub-endpoints';
import { RequireScopes } from '../platform/auth/auth.decorators';
import { toProtoStructLazy } from '../platform/grpc/grpc-wkt';
import { RateLimit } from '../platform/rate-limit/rate-limit.decorator';
import { validateInput, withoutEmpty } from '../platform/validation/validate-input';
import { AgentRecordResponse, ExtendedAgentRecordResponse } from './dto/agent.response';
import { RegisterAgentDto, ValidateAgentDto } from './dto/register-agent.dto';
import { RegistryService } from './registry.service';
import { agentV2, extendedAgentV2, registerRequestFromV2, validationReportV2 } from './registry-v2.grpc.mapping';

const V1 = 'switchboard.v1.RegistryService';
const V2 = 'switchboard.v2.RegistryService';

interface AgentRef {
  agent_id: string;
}

/**
 * The registry over gRPC: switchboard.v1.RegistryService (proto/switchboard/v1/registry.proto)
 * and switchboard.v2.RegistryService (v2/registry.proto), the same service calls with thin
 * encodings for each. Handlers are named by full service name: Nest would otherwise bind one
 * handler to both packages' `RegistryService`.
 */
@Controller()
@RateLimit('registry')
export class RegistryGrpcController {
  constructor(
    private readonly registry: RegistryService,
    private readonly endpoints: HubEndpointsResolver,
  ) {}

  @GrpcMethod(V1, 'ListAgentCards')
  @RequireScopes('agents:read')
  listAgentCards() {
    return { cards_json: this.registry.listCards(this.endpoints.configured()).map((card) => JSON.stringify(card)) };
  }

  @GrpcMethod(V1, 'GetAgent')
  @RequireScopes('agents:read')
  async getAgent(request: AgentRef) {
    return toAgent(await this.registry.get(request.agent_id, this.endpoints.configured()));
  }

  @GrpcMethod(V1, 'GetAgentExtended')
  @RequireScopes('admin')
  async getAgentExtended(request: AgentRef) {
    const record = await this.registry.getExtended(request.agent_id, this.endpoints.configured());
    return toExtended(record);
  }

  @GrpcMethod(V1, 'RegisterAgent')
  @RequireScopes('agents:write')
  async registerAgent(request: unknown) {
    const input = validateInput(RegisterAgentDto, withoutEmpty(request));
    return toAgent(await this.registry.register({ baseUrl: input.base_url, id: input.id, auth: input.auth }));
  }

  @GrpcMethod(V1, 'ValidateAgentCard')
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

  @GrpcMethod(V1, 'RefreshAgent')
  @RequireScopes('agents:write')
  async refreshAgent(request: AgentRef) {
    return toAgent(await this.registry.refresh(request.agent_id));
  }

  @GrpcMethod(V1, 'DeleteAgent')
  @RequireScopes('agents:write')
  async deleteAgent(request: AgentRef) {
    await this.registry.remove(request.agent_id);
    return {};
  }

  @GrpcMethod(V2, 'ListAgentCards')
  @RequireScopes('agents:read')
  listAgentCardsV2() {
    return { cards: this.registry.listCards(this.endpoints.configured()).map((card) => toProtoStructLazy(card)) };
  }

  @GrpcMethod(V2, 'GetAgent')
  @RequireScopes('agents:read')
  async getAgentV2(request: AgentRef) {
    return { agent: agentV2(await this.registry.get(request.agent_id, this.endpoints.configured())) };
  }

  @GrpcMethod(V2, 'GetAgentExtended')
  @RequireScopes('admin')
  async getAgentExtendedV2(request: AgentRef) {
    return extendedAgentV2(await this.registry.getExtended(request.agent_id, this.endpoints.configured()));
  }

  @GrpcMethod(V2, 'RegisterAgent')
  @RequireScopes('agents:write')
  async registerAgentV2(request: object) {
    const input = validateInput(RegisterAgentDto, withoutEmpty(registerRequestFromV2(request)));
    return {
      agent: agentV2(await this.registry.register({ baseUrl: input.base_url, id: input.id, auth: input.auth })),
    };
  }

  @GrpcMethod(V2, 'ValidateAgentCard')
  @RequireScopes('agents:write')
  async validateAgentCardV2(request: unknown) {
    return validationReportV2(
      await this.registry.validate(validateInput(ValidateAgentDto, withoutEmpty(request)).base_url),
    );
  }

  @GrpcMethod(V2, 'RefreshAgent')
  @RequireScopes('agents:write')
  async refreshAgentV2(request: AgentRef) {
    return { agent: agentV2(await this.registry.refresh(request.agent_id)) };
  }

  @GrpcMethod(V2, 'DeleteAgent')
  @RequireScopes('agents:write')
  async deleteAgentV2(request: AgentRef) {
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
