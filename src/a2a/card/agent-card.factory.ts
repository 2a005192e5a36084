import { AgentCard, AgentInterface, SecurityScheme } from '@a2a-js/sdk';
import { Injectable } from '@nestjs/common';
import { AgentProfile, DEFAULT_AGENT_ID } from '../agent-profile';
import type { HubEndpoints } from './hub-endpoints';

/** The A2A v0.3 card as JSON (the shape our API spec, Home Assistant and v0.3 SDKs read). */
export interface V03AgentCard {
  protocolVersion: string;
  name: string;
  description: string;
  url: string;
  preferredTransport: string;
  additionalInterfaces: { url: string; transport: string }[];
  version: string;
  provider: { organization: string; url: string };
  capabilities: { streaming: boolean; pushNotifications: boolean; stateTransitionHistory: boolean };
  securitySchemes: Record<string, Record<string, string>>;
  security: Record<string, string[]>[];
  defaultInputModes: string[];
  defaultOutputModes: string[];
  skills: {
    id: string;
    name: string;
    description: string;
    tags: string[];
    examples?: string[];
    inputModes?: string[];
    outputModes?: string[];
  }[];
  supportsAuthenticatedExtendedCard: boolean;
  documentationUrl?: string;
  iconUrl?: string;
}

const SECURITY_SCHEMES: Record<string, SecurityScheme> = {
  apiKey: {
    scheme: {
      $case: 'apiKeySecurityScheme',
      value: { description: 'Switchboard API key', location: 'header', name: 'X-Api-Key' },
    },
  },
  bearer: {
    scheme: {
      $case: 'httpAuthSecurityScheme',
      value: { description: 'Switchboard API key as a bearer token', scheme: 'bearer', bearerFormat: '' },
    },
  },
};

/**
 * Builds the cards the hub serves for each agent it hosts: the hub's endpoints on all three
 * transports, the hub's security, and the agent's own name, description and skills.
 *
 * A card never advertises an interface on which an unmodified official client would reach
 * another agent: the v0.3 gRPC service has no tenant, so only the default agent's card lists
 * GRPC for v0.3; v1.0 cards list GRPC with the agent's id as tenant.
 */
@Injectable()
export class AgentCardFactory {
  build(profile: AgentProfile, endpoints: HubEndpoints): AgentCard {
    const base = `${endpoints.httpBase}/api/agents/${encodeURIComponent(profile.id)}`;
    const iface = (url: string, protocolBinding: string, protocolVersion: string, tenant = ''): AgentInterface => ({
      url,
      protocolBinding,
      protocolVersion,
      tenant,
    });
    const interfaces = [
      iface(`${base}/v1`, 'JSONRPC', '1.0'),
      iface(`${base}/json`, 'HTTP+JSON', '1.0'),
      iface(endpoints.grpcAddress, 'GRPC', '1.0', profile.id),
      iface(`${base}/v1`, 'JSONRPC', '0.3'),
      iface(`${base}/json`, 'HTTP+JSON', '0.3'),
    ];
    if (profile.id === DEFAULT_AGENT_ID) interfaces.push(iface(endpoints.grpcAddress, 'GRPC', '0.3'));
    return {
      name: profile.name,
      description: profile.description,
      version: profile.version,
      supportedInterfaces: interfaces,
      provider: { organization: 'Switchboard', url: endpoints.httpBase },
      documentationUrl: profile.documentationUrl,
      iconUrl: profile.iconUrl,
      capabilities: { streaming: true, pushNotifications: true, extendedAgentCard: false, extensions: [] },
      securitySchemes: SECURITY_SCHEMES,
      securityRequirements: [{ schemes: { apiKey: { list: [] } } }, { schemes: { bearer: { list: [] } } }],
      defaultInputModes: profile.defaultInputModes,
      defaultOutputModes: profile.defaultOutputModes,
      skills: profile.skills.map((s) => ({
        id: s.id,
        name: s.name,
        description: s.description,
        tags: s.tags,
        examples: s.examples,
        inputModes: s.inputModes ?? [],
        outputModes: s.outputModes ?? [],
        securityRequirements: [],
      })),
      signatures: [],
    };
  }

  /** The v1.0 card in the specification's JSON form (ProtoJSON of lf.a2a.v1.AgentCard). */
  toV1Json(card: AgentCard): Record<string, unknown> {
    return AgentCard.toJSON(card) as Record<string, unknown>;
  }

  /**
   * The card for a client that names no version (or v0.3): the v0.3 card, plus the v1.0
   * `supportedInterfaces` in their specification JSON form - as the SDK's own card handler
   * serves it - so a v0.3 client reads its fields and a v1.0 client (the A2A TCK, the 1.x SDKs)
   * finds every interface and protocol version without asking again.
   */
  toDiscoveryJson(card: AgentCard): V03AgentCard & { supportedInterfaces: unknown } {
    return { ...this.toV03Json(card), supportedInterfaces: this.toV1Json(card).supportedInterfaces };
  }

  /** The v0.3 card: main url/transport pair also listed in additionalInterfaces, as the spec asks. */
  toV03Json(card: AgentCard): V03AgentCard {
    const legacy = card.supportedInterfaces.filter((i) => i.protocolVersion === '0.3');
    const main = legacy.find((i) => i.protocolBinding === 'JSONRPC') ?? legacy[0];
    return {
      protocolVersion: '0.3.0',
      name: card.name,
      description: card.description,
      url: main.url,
      preferredTransport: main.protocolBinding,
      additionalInterfaces: legacy.map((i) => ({ url: i.url, transport: i.protocolBinding })),
      version: card.version,
      provider: card.provider ?? { organization: 'Switchboard', url: main.url },
      capabilities: {
        streaming: card.capabilities?.streaming === true,
        pushNotifications: card.capabilities?.pushNotifications === true,
        stateTransitionHistory: false,
      },
      securitySchemes: Object.fromEntries(
        Object.entries(card.securitySchemes).flatMap(([name, s]) => {
          const v03 = toV03Scheme(s);
          return v03 ? [[name, v03]] : [];
        }),
      ),
      security: card.securityRequirements.map((r) => Object.fromEntries(Object.keys(r.schemes).map((k) => [k, []]))),
      defaultInputModes: card.defaultInputModes,
      defaultOutputModes: card.defaultOutputModes,
      skills: card.skills.map((s) => ({
        id: s.id,
        name: s.name,
        description: s.description,
        tags: s.tags,
        ...(s.examples.length ? { examples: s.examples } : {}),
        ...(s.inputModes.length ? { inputModes: s.inputModes } : {}),
        ...(s.outputModes.length ? { outputModes: s.outputModes } : {}),
      })),
      supportsAuthenticatedExtendedCard: false,
      ...(card.documentationUrl ? { documentationUrl: card.documentationUrl } : {}),
      ...(card.iconUrl ? { iconUrl: card.iconUrl } : {}),
    };
  }
}

function toV03Scheme(scheme: SecurityScheme): Record<string, string> | undefined {
  const s = scheme.scheme;
  switch (s?.$case) {
    case 'apiKeySecurityScheme':
      return { type: 'apiKey', in: s.value.location, name: s.value.name, description: s.value.description };
    case 'httpAuthSecurityScheme':
      return { type: 'http', scheme: s.value.scheme, description: s.value.description };
    default:
      return undefined;
  }
}
