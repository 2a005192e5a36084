import { Injectable } from '@nestjs/common';
import { DEFAULT_AGENT_ID } from '../a2a/agent-profile';
import { V03AgentCard } from '../a2a/card/agent-card.factory';
import { AgentCardService } from '../a2a/card/agent-card.service';
import { HubEndpoints } from '../a2a/card/hub-endpoints';
import { AgentHost, HostedAgent } from '../a2a/hosting/agent-host';
import { SecretBox } from '../platform/crypto/secret-box';
import { DomainError } from '../platform/errors/domain-error';
import { ErrorCode } from '../platform/errors/error-code';
import { AgentRepository } from './agent.repository';
import { CardResolver, ResolvedCard } from './card/card-resolver';
import { CardValidationReport } from './card/card-validation.types';
import { summarizeErrors } from './card/card-validator';
import { AgentRecordResponse, ExtendedAgentRecordResponse } from './dto/agent.response';
import { AGENT_ID_PATTERN } from './dto/register-agent.dto';
import { AgentAuthMode, AgentEntity } from './entities/agent.entity';
import { credentialHeaders } from './remote/credential-headers';
import { RemoteAgentHosting } from './remote/remote-agent-hosting';
import { assertCallable } from './remote/remote-client.factory';

export interface RegisterAgent {
  baseUrl: string;
  id?: string;
  auth?: { mode: AgentAuthMode; header?: string; secret?: string };
}

const STARTED_AT = new Date();

/**
 * The registry: the agents the hub knows. Remote agents are resolved from their card, stored,
 * and hosted (on every replica); built-in agents are listed alongside them. One service behind
 * the REST, gRPC (and later MCP) faces.
 */
@Injectable()
export class RegistryService {
  constructor(
    private readonly agents: AgentRepository,
    private readonly host: AgentHost,
    private readonly cards: AgentCardService,
    private readonly resolver: CardResolver,
    private readonly secrets: SecretBox,
    private readonly hosting: RemoteAgentHosting,
  ) {}

  /** The hub's cards for every agent it hosts, the default agent first. */
  listCards(endpoints: HubEndpoints): V03AgentCard[] {
    return this.host.list().map((agent) => this.cards.v03(agent, endpoints));
  }

  async register(input: RegisterAgent): Promise<AgentRecordResponse> {
    const auth = input.auth ?? { mode: 'none' };
    const resolved = await this.resolver.resolve(input.baseUrl, credentialHeaders(auth.mode, auth.header, auth.secret));
    assertUsable(resolved, 'is not a valid A2A card');
    if (input.id && this.host.get(input.id)?.profile.kind === 'local') {
      throw new DomainError(ErrorCode.CONFLICT, `Agent id ${input.id} belongs to a built-in agent`, {
        details: { id: input.id },
      });
    }
    const now = new Date();
    const id = input.id ?? (await this.freeId(slugify(resolved.report.name ?? '')));
    const entity = Object.assign(new AgentEntity(), {
      id,
      name: resolved.report.name ?? id,
      baseUrl: resolved.baseUrl,
      cardUrl: resolved.cardUrl,
      card: resolved.card,
      status: 'connected' as const,
      authMode: auth.mode,
      authHeader: auth.mode === 'api_key' ? (auth.header ?? 'X-Api-Key') : null,
      authSecretSealed: auth.mode !== 'none' && auth.secret ? this.secrets.seal(auth.secret) : null,
      lastSeenAt: now,
      lastCheckError: null,
      createdAt: now,
      updatedAt: now,
    });
    // A derived id taken in the meantime by another registration moves on to the next free one.
    while (!(await this.agents.insert(entity))) {
      if (input.id) {
        throw new DomainError(ErrorCode.CONFLICT, `An agent with id ${entity.id} is already registered`, {
          details: { id: entity.id },
        });
      }
      entity.id = await this.freeId(slugify(resolved.report.name ?? ''));
    }
    await this.hosting.publishHosted(entity);
    return remoteRecord(entity);
  }

  /** Fetches and checks a card without registering anything. */
  async validate(baseUrl: string): Promise<CardValidationReport & { card_url: string }> {
    const resolved = await this.resolver.resolve(baseUrl);
    return { ...resolved.report, card_url: resolved.cardUrl };
  }

  async get(id: string, endpoints: HubEndpoints): Promise<AgentRecordResponse> {
    const local = this.localAgent(id);
    if (local) return this.localRecord(local, endpoints);
    return remoteRecord(await this.requireRemote(id));
  }

  async getExtended(id: string, endpoints: HubEndpoints): Promise<ExtendedAgentRecordResponse> {
    const local = this.localAgent(id);
    if (local) {
      const record = this.localRecord(local, endpoints);
      return {
        ...record,
        auth_header: null,
        has_secret: false,
        card_url: null,
        last_check_error: null,
        updated_at: record.created_at,
      };
    }
    const agent = await this.requireRemote(id);
    return {
      ...remoteRecord(agent),
      auth_header: agent.authHeader,
      has_secret: agent.authSecretSealed !== null,
      card_url: agent.cardUrl,
      last_check_error: agent.lastCheckError,
      updated_at: agent.updatedAt.toISOString(),
    };
  }

  /** Re-reads the agent's card and re-hosts it with what changed. */
  async refresh(id: string): Promise<AgentRecordResponse> {
    if (this.localAgent(id))
      throw new DomainError(ErrorCode.INVALID_STATE, `Agent ${id} is built in; it has no card to refresh`);
    const agent = await this.requireRemote(id);
    const resolved = await this.resolver.resolve(agent.baseUrl, this.hosting.authHeaders(agent));
    assertUsable(resolved, 'is no longer valid');
    await this.agents.updateCard(id, resolved.card, resolved.cardUrl, resolved.report.name ?? agent.name, new Date());
    const updated = await this.requireRemote(id);
    await this.hosting.publishHosted(updated);
    return remoteRecord(updated);
  }

  async remove(id: string): Promise<void> {
    if (this.localAgent(id))
      throw new DomainError(ErrorCode.INVALID_STATE, `Agent ${id} is built in and cannot be removed`);
    if (!(await this.agents.delete(id))) throw DomainError.notFound('Agent', id);
    await this.hosting.publishRemoved(id);
    await this.host.purge(id);
  }

  private localAgent(id: string): HostedAgent | undefined {
    const hosted = this.host.get(id);
    return hosted?.profile.kind === 'local' ? hosted : undefined;
  }

  private localRecord(agent: HostedAgent, endpoints: HubEndpoints): AgentRecordResponse {
    return {
      agent_id: agent.id,
      name: agent.profile.name,
      kind: 'local',
      base_url: `${endpoints.httpBase}/api/agents/${agent.id}`,
      status: 'connected',
      card: this.cards.v03(agent, endpoints) as unknown as Record<string, unknown>,
      auth_mode: 'none',
      last_seen_at: new Date().toISOString(),
      created_at: STARTED_AT.toISOString(),
    };
  }

  private async requireRemote(id: string): Promise<AgentEntity> {
    const agent = await this.agents.findById(id);
    if (!agent) throw DomainError.notFound('Agent', id);
    return agent;
  }

  /** `lights`, else `lights-2`, `lights-3`, ... */
  private async freeId(base: string): Promise<string> {
    for (let n = 1; ; n++) {
      const candidate = n === 1 ? base : `${base.slice(0, 58)}-${n}`;
      if (!this.host.get(candidate) && !(await this.agents.exists(candidate))) return candidate;
    }
  }
}

/** A card the hub can host: valid against the A2A schema, with an interface the hub can call. */
function assertUsable(resolved: ResolvedCard, failure: string): void {
  if (resolved.report.validation === 'failed') {
    throw new DomainError(
      ErrorCode.VALIDATION_FAILED,
      `The agent card at ${resolved.cardUrl} ${failure}: ${summarizeErrors(resolved.report)}`,
      { details: { card_url: resolved.cardUrl, problems: resolved.report.problems } },
    );
  }
  assertCallable(resolved.card);
}

function remoteRecord(agent: AgentEntity): AgentRecordResponse {
  return {
    agent_id: agent.id,
    name: agent.name,
    kind: 'remote',
    base_url: agent.baseUrl,
    status: agent.status,
    card: agent.card,
    auth_mode: agent.authMode,
    last_seen_at: agent.lastSeenAt?.toISOString() ?? null,
    created_at: agent.createdAt.toISOString(),
  };
}

function slugify(name: string): string {
  const slug = name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 63);
  return AGENT_ID_PATTERN.test(slug) && slug !== DEFAULT_AGENT_ID ? slug : 'agent';
}
