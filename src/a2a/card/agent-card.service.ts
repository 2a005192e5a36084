import { Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
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
  constructor(
    private readonly factory: AgentCardFactory,
    private readonly endpoints: HubEndpointsResolver,
  ) {}

  v03(agent: HostedAgent, endpoints: HubEndpoints): V03AgentCard {
    return this.factory.toV03Json(this.factory.build(agent.profile, endpoints));
  }

  serve(agent: HostedAgent, req: Request, res: Response): void {
    const card = this.factory.build(agent.profile, this.endpoints.fromRequest(req));
    const body = requestedVersion(req) === '1.0' ? this.factory.toV1Json(card) : this.factory.toDiscoveryJson(card);
    res.setHeader('Vary', 'A2A-Version');
    res.setHeader('Cache-Control', `public, max-age=${CARD_MAX_AGE_SECONDS}`);
    res.json(body);
  }
}
