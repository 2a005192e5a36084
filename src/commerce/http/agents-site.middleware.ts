import { Injectable, NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { AppConfig } from '../../platform/config/app-config';
import { DomainError } from '../../platform/errors/domain-error';
import { ErrorCode } from '../../platform/errors/error-code';
import { KeyValueStore } from '../../platform/kv/key-value-store';
import { Metrics } from '../../platform/metrics/metrics';
import { ShopSessionsService } from '../shop-sessions.service';
import { isAgentsSite, isDiscoveryDocument, sessionTokenOf, setAgentsHeaders } from './agents-http';
import { TokenBucket } from './token-bucket';

/**
 * Before any agents.json route: the Link and CORS headers, OPTIONS preflights (204), and the rate
 * limit declared in the manifest, per client (its session once verified, else its address), shared
 * by replicas.
 * The discovery documents are not limited: clients fetch the manifest again before their calls,
 * and one refused there reads as "no agents.json here" although the client kept to the limit.
 */
@Injectable()
export class AgentsSiteMiddleware implements NestMiddleware {
  private readonly bucket: TokenBucket;

  constructor(
    kv: KeyValueStore,
    config: AppConfig,
    private readonly metrics: Metrics,
    private readonly sessions: ShopSessionsService,
  ) {
    this.bucket = new TokenBucket(kv, config);
  }

  async use(req: Request, res: Response, next: NextFunction): Promise<void> {
    if (!isAgentsSite(req)) return next();
    setAgentsHeaders(res);
    if (req.method === 'OPTIONS') return void res.status(204).end();
    if (isDiscoveryDocument(req)) return next();
    const token = sessionTokenOf(req);
    const session = token === undefined ? undefined : this.sessions.verifiedKey(token);
    const decision = await this.bucket.take(session ? `s:${session}` : `ip:${req.ip}`);
    if (!decision) return next();
    res.setHeader('X-RateLimit-Limit', String(decision.limit));
    res.setHeader('X-RateLimit-Remaining', String(decision.remaining));
    res.setHeader(
      'X-RateLimit-Reset',
      String(decision.allowed ? decision.resetAt : Math.ceil(Date.now() / 1000) + decision.retryAfterSeconds),
    );
    if (!decision.allowed) {
      this.metrics.rateLimitRefusals.inc({ policy: 'commerce' });
      throw new DomainError(ErrorCode.RATE_LIMITED, 'Rate limit exceeded', {
        retryAfterSeconds: decision.retryAfterSeconds,
      });
    }
    next();
  }
}
