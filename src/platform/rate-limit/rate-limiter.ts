import { Injectable, Logger } from '@nestjs/common';
import { InjectThrottlerStorage, type ThrottlerStorage } from '@nestjs/throttler';
import type { Response } from 'express';
import { AppConfig } from '../config/app-config';
import { Metrics } from '../metrics/metrics';
import { DomainError } from '../errors/domain-error';
import { ErrorCode } from '../errors/error-code';
import { RATE_LIMIT_POLICIES, RateLimitPolicy } from './rate-limit.decorator';

const WINDOW_MS = 60_000;

export interface RateLimitDecision {
  limit: number;
  remaining: number;
  /** Unix time (seconds) when the window ends. */
  resetAt: number;
}

/** Requests per minute for each policy, from configuration. */
export function policyLimits(config: AppConfig): Record<RateLimitPolicy, number> {
  return {
    registry: config.rateLimit.registryPerMinute,
    conversation: config.rateLimit.conversationPerMinute,
    tasks: config.rateLimit.tasksPerMinute,
  };
}

/**
 * Counts one request against a policy for a caller, on the throttler storage (Redis when
 * configured, so the count is shared by every replica). Used by the HTTP/Nest guard and by the
 * raw gRPC services alike. Refuses with RATE_LIMITED past the limit; if the store is unreachable
 * it refuses with SERVICE_UNAVAILABLE, or lets the request through uncounted when
 * RATE_LIMIT_FAIL_OPEN is set (then it returns undefined).
 */
@Injectable()
export class RateLimiter {
  private readonly logger = new Logger('RateLimit');
  private readonly limits: Record<RateLimitPolicy, number>;

  constructor(
    @InjectThrottlerStorage() private readonly storage: ThrottlerStorage,
    private readonly config: AppConfig,
    private readonly metrics: Metrics,
  ) {
    this.limits = policyLimits(config);
  }

  async consume(policy: RateLimitPolicy, tracker: string): Promise<RateLimitDecision | undefined> {
    if (!RATE_LIMIT_POLICIES.includes(policy)) throw new Error(`Unknown rate-limit policy ${policy}`);
    const limit = this.limits[policy];
    let record;
    try {
      record = await this.storage.increment(`${policy}:${tracker}`, WINDOW_MS, limit, WINDOW_MS, policy);
    } catch (error) {
      return storeFailed(error, this.config, this.logger);
    }
    const decision = {
      limit,
      remaining: Math.max(0, limit - record.totalHits),
      resetAt: Math.ceil(Date.now() / 1000) + record.timeToExpire,
    };
    if (record.isBlocked) {
      this.metrics.rateLimitRefusals.inc({ policy });
      const retryAfter = record.timeToBlockExpire;
      throw Object.assign(
        new DomainError(
          ErrorCode.RATE_LIMITED,
          `Rate limit exceeded: at most ${limit} ${policy} requests per minute; retry in ${retryAfter} s`,
          { retryAfterSeconds: retryAfter, details: { policy, limit, retry_after_seconds: retryAfter } },
        ),
        { decision },
      );
    }
    return decision;
  }

  /**
   * Counts one HTTP request like `consume`, and puts `X-RateLimit-Limit/Remaining/Reset` (Reset in
   * unix seconds) on its answer, whether it is let through or refused.
   */
  async consumeForHttp(policy: RateLimitPolicy, tracker: string, res: Response | undefined): Promise<void> {
    try {
      const decision = await this.consume(policy, tracker);
      if (res && decision) setRateLimitHeaders(res, decision);
    } catch (error) {
      const decision = decisionOf(error);
      if (res && decision) setRateLimitHeaders(res, decision);
      throw error;
    }
  }
}

/** What the `conversation` policy counts by: the caller (API key) and the agent addressed. */
export function conversationTracker(caller: string, agentId: string): string {
  return `${caller}:${agentId}`;
}

function setRateLimitHeaders(res: Response, decision: RateLimitDecision): void {
  res.setHeader('X-RateLimit-Limit', String(decision.limit));
  res.setHeader('X-RateLimit-Remaining', String(decision.remaining));
  res.setHeader('X-RateLimit-Reset', String(decision.resetAt));
}

/** The decision behind a RATE_LIMITED error, for its X-RateLimit-* headers. */
function decisionOf(error: unknown): RateLimitDecision | undefined {
  return (error as { decision?: RateLimitDecision } | undefined)?.decision;
}

/**
 * What any rate limit does when its store cannot be reached: refuses with SERVICE_UNAVAILABLE, or,
 * with RATE_LIMIT_FAIL_OPEN, lets the request through uncounted (undefined) and says so in the log.
 */
export function storeFailed(error: unknown, config: AppConfig, logger: Logger): undefined {
  if (!config.rateLimit.failOpen) throw unavailable(error);
  logger.warn(`Rate-limit store unavailable, letting the request through (RATE_LIMIT_FAIL_OPEN): ${String(error)}`);
  return undefined;
}

function unavailable(error: unknown): DomainError {
  if (error instanceof DomainError && error.code === ErrorCode.SERVICE_UNAVAILABLE) {
    return new DomainError(
      ErrorCode.SERVICE_UNAVAILABLE,
      'Rate limiting is unavailable (Redis unreachable); try again shortly',
      { retryAfterSeconds: 1, cause: error },
    );
  }
  return error instanceof DomainError
    ? error
    : new DomainError(ErrorCode.INTERNAL, 'Rate limiting failed', { cause: error });
}
