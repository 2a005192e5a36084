import { AgentCard } from '@a2a-js/sdk';
import {
  Client,
  ClientFactory,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
  RestTransportFactory,
} from '@a2a-js/sdk/client';
import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '../../platform/config/app-config';
import { DomainError } from '../../platform/errors/domain-error';
import { ErrorCode } from '../../platform/errors/error-code';
import { OutboundHttp } from '../../platform/net/outbound-http';

const LOCAL_HOSTS = new Set(['0.0.0.0', '::', '[::]', 'localhost', '127.0.0.1', '[::1]']);

/**
 * Builds the official SDK client the hub uses to talk to a remote agent, from the card it
 * stored: v1.0 and v0.3 cards alike (the SDK's v0.3 compatibility turned on), over JSON-RPC or
 * HTTP+JSON through the SSRF-guarded fetch, with the agent's credentials added to each request.
 * gRPC is not used for remote agents: its connections would bypass the SSRF guard.
 */
@Injectable()
export class RemoteClientFactory implements OnApplicationShutdown {
  /** The guarded client, with REMOTE_AGENT_TIMEOUT_MS to start answering: agents think before they reply. */
  private readonly http: OutboundHttp;

  constructor(outbound: OutboundHttp, config: AppConfig) {
    this.http = new OutboundHttp({ ...outbound.policy, timeoutMs: config.registry.remoteAgentTimeoutMs });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.http.close();
  }

  /**
   * `credentials` are sent only to the origin the agent was registered with, and never along a
   * redirect: a card naming another host, or a 3xx, cannot lead them anywhere else.
   */
  async create(card: Record<string, unknown>, baseUrl: string, credentials: Record<string, string>): Promise<Client> {
    const origin = new URL(baseUrl).origin;
    const withCredentials = Object.keys(credentials).length > 0;
    const fetchImpl: typeof fetch = (input, init) => {
      const url = input instanceof Request ? input.url : String(input);
      if (!withCredentials || new URL(url).origin !== origin) return this.http.fetch(input, init);
      const headers = new Headers(init?.headers);
      for (const [name, value] of Object.entries(credentials)) headers.set(name, value);
      return this.http.fetch(input, { ...init, headers, redirect: 'manual' });
    };
    const legacyCompat = { enabled: true };
    const factory = new ClientFactory({
      transports: [
        new JsonRpcTransportFactory({ fetchImpl, legacyCompat }),
        new RestTransportFactory({ fetchImpl, legacyCompat }),
      ],
      preferredTransports: ['JSONRPC', 'HTTP+JSON'],
    });
    return factory.createFromAgentCard(reachable(normalize(card), baseUrl));
  }
}

/** The binding names the hub can call a remote agent on. */
const HTTP_BINDINGS = new Set(['JSONRPC', 'HTTP+JSON']);

/**
 * Throws VALIDATION_FAILED unless the card offers an interface the hub can call: JSON-RPC or
 * HTTP+JSON (gRPC connections would bypass the SSRF guard).
 */
export function assertCallable(card: Record<string, unknown>): void {
  let bindings: string[];
  try {
    bindings = normalize(card).supportedInterfaces.map((i) => i.protocolBinding.toUpperCase());
  } catch {
    bindings = [];
  }
  if (!bindings.some((b) => HTTP_BINDINGS.has(b))) {
    throw new DomainError(
      ErrorCode.VALIDATION_FAILED,
      `The agent offers no JSON-RPC or HTTP+JSON interface the hub can call (it offers: ${bindings.join(', ') || 'none'})`,
      { details: { bindings } },
    );
  }
}

/** A v1.0 card (ProtoJSON) parsed as such; anything else through the SDK's v0.3 reader. */
function normalize(card: Record<string, unknown>): AgentCard {
  if (Array.isArray(card.supportedInterfaces) && card.supportedInterfaces.length > 0) return AgentCard.fromJSON(card);
  return new DefaultAgentCardResolver({ legacyCompat: { enabled: true } }).normalizeAgentCard(card);
}

/** Where the hub calls a remote agent: its card's interfaces, made reachable; none when the card cannot be read. */
export function reachableEndpoints(
  card: Record<string, unknown>,
  baseUrl: string,
): { transport: string; url: string }[] {
  try {
    return reachable(normalize(card), baseUrl).supportedInterfaces.map((iface) => ({
      transport: iface.protocolBinding,
      url: iface.url,
    }));
  } catch {
    return [];
  }
}

/**
 * Cards in the field often name the endpoint the agent saw itself at - `http://0.0.0.0:9999/`,
 * `http://localhost:8000/` - or a relative path. Such URLs are taken relative to the base URL
 * the agent was registered with, which is where the hub can actually reach it.
 */
function reachable(card: AgentCard, baseUrl: string): AgentCard {
  const base = new URL(baseUrl);
  return {
    ...card,
    supportedInterfaces: card.supportedInterfaces.map((iface) => {
      if (iface.protocolBinding === 'GRPC') return iface;
      let url: URL;
      try {
        url = new URL(iface.url, `${base.origin}/`);
      } catch {
        return iface;
      }
      if (LOCAL_HOSTS.has(url.hostname) && !LOCAL_HOSTS.has(base.hostname)) {
        url.protocol = base.protocol;
        url.host = base.host;
      }
      return { ...iface, url: url.toString() };
    }),
  };
}
