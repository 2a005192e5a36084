import { Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { AgentProfile } from '../agent-profile';
import type { HostedAgent } from '../hosting/agent-host';
import { requestedVersion } from '../http/a2a-version';
import { AgentCardFactory, V03AgentCard } from './agent-card.factory';
import { HubEndpoints, HubEndpointsResolver } from './hub-endpoints';

const CARD_MAX_AGE_SECONDS = 60;

/**
 * Serves hosted agents' cards, with the endpoints the caller used to reach the hub. Rendered
 * here rather than by the SDK's card handler, whose output deviates from both specifications
 * (the v0.3 card leaves its main interface out of additionalInterfaces; the v1.0 card prints
 * securitySchemes in an internal form). `A2A-Version: 1.0` (or `1`, `1.0.x`) gets the v1.0 card;
 * any other request - no header, 0.3, a version the hub does not serve: discovery never fails -
 * the v0.3 card carrying the v1.0 supportedInterfaces too (toDiscoveryJson).
 */
@Injectable()
export class AgentCardService {
  /**
   * The last v0.3 card built for each profile, and the endpoints it names. A profile is replaced,
   * never changed, when its agent changes, so a card lives as long as its profile is current:
   * every list of cards (GET /agents, ListAgentCards, which keeps its bytes too) reuses it.
   */
  private readonly v03Cards = new WeakMap<AgentProfile, { endpoints: HubEndpoints; card: V03AgentCard }>();

  constructor(
    private readonly factory: AgentCardFactory,
    private readonly endpoints: HubEndpointsResolver,
  ) {}

  /** The agent's v0.3 card, frozen all the way down: callers share it and must copy to change it. */
  v03(agent: HostedAgent, endpoints: HubEndpoints): V03AgentCard {
    const last = this.v03Cards.get(agent.profile);
    if (last?.endpoints.httpBase === endpoints.httpBase && last.endpoints.grpcAddress === endpoints.grpcAddress) {
      return last.card;
    }
    const card = deepFreeze(structuredClone(this.factory.toV03Json(this.factory.build(agent.profile, endpoints))));
    this.v03Cards.set(agent.profile, { endpoints: { ...endpoints }, card });
    return card;
  }

  serve(agent: HostedAgent, req: Request, res: Response): void {
    const card = this.factory.build(agent.profile, this.endpoints.fromRequest(req));
    const body = requestedVersion(req) === '1.0' ? this.factory.toV1Json(card) : this.factory.toDiscoveryJson(card);
    res.setHeader('Vary', 'A2A-Version');
    res.setHeader('Cache-Control', `public, max-age=${CARD_MAX_AGE_SECONDS}`);
    res.json(body);
  }
}

/** `value` and everything in it frozen (a JSON value, which has no cycles). */
function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object') {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}
