import { ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import {
  InjectThrottlerOptions,
  InjectThrottlerStorage,
  ThrottlerGuard,
  type ThrottlerModuleOptions,
  type ThrottlerRequest,
  type ThrottlerStorage,
} from '@nestjs/throttler';
import type { Metadata } from '@grpc/grpc-js';
import type { Request, Response } from 'express';
import { principalOf } from '../auth/principal-holder';
import { AppConfig } from '../config/app-config';
import { RATE_LIMIT_POLICY, RateLimitPolicy } from './rate-limit.decorator';
import { conversationTracker, policyLimits, RateLimiter } from './rate-limiter';

/** What the throttler tracks a caller by. */
export interface RateLimitSubject {
  /** The API key id, or the client address on public routes. */
  caller: string;
  /** The agent a conversation request addresses. */
  agentId: string;
}

const DEFAULT_AGENT = 'orchestrator';

/**
 * @nestjs/throttler's guard with Switchboard's contract: only routes marked @RateLimit(policy)
 * count, per policy and caller (not per route); every counted HTTP response carries
 * `X-RateLimit-Limit/Remaining/Reset` (Reset in unix seconds); a refusal is 429 with
 * `Retry-After` (gRPC: RESOURCE_EXHAUSTED). The counting itself is RateLimiter's.
 */
@Injectable()
export class RateLimitGuard extends ThrottlerGuard {
  constructor(
    @InjectThrottlerOptions() options: ThrottlerModuleOptions,
    @InjectThrottlerStorage() storage: ThrottlerStorage,
    reflector: Reflector,
    private readonly limiter: RateLimiter,
  ) {
    super(options, storage, reflector);
  }

  static policyOf(context: ExecutionContext): RateLimitPolicy | undefined {
    return (
      Reflect.getMetadata(RATE_LIMIT_POLICY, context.getHandler()) ??
      Reflect.getMetadata(RATE_LIMIT_POLICY, context.getClass())
    );
  }

  static subjectOf(context: ExecutionContext): RateLimitSubject {
    const principal = principalOf(context);
    if (context.getType() === 'rpc') {
      const metadata = context.switchToRpc().getContext<Metadata>();
      const agent = metadata.get('x-agent-id')[0]?.toString();
      return { caller: principal?.keyId ?? 'anonymous-grpc', agentId: agent || DEFAULT_AGENT };
    }
    const req = context.switchToHttp().getRequest<Request>();
    const agent = req.params?.agentId ?? req.params?.id;
    return {
      caller: principal?.keyId ?? `ip:${req.ip}`,
      agentId: typeof agent === 'string' && agent ? agent : DEFAULT_AGENT,
    };
  }

  /** Whom `policy` counts a call against: its caller, and for `conversation` the agent it addresses too. */
  static trackerOf(policy: RateLimitPolicy, context: ExecutionContext): string {
    const subject = RateLimitGuard.subjectOf(context);
    return policy === 'conversation' ? conversationTracker(subject.caller, subject.agentId) : subject.caller;
  }

  protected override async handleRequest(request: ThrottlerRequest): Promise<boolean> {
    const { context, throttler } = request;
    const res = context.getType() === 'http' ? context.switchToHttp().getResponse<Response>() : undefined;
    const tracker = await request.getTracker({}, context);
    await this.limiter.consumeForHttp(throttler.name as RateLimitPolicy, tracker, res);
    return true;
  }
}

export function rateLimitThrottlers(config: AppConfig) {
  const minute = 60_000;
  const limits = policyLimits(config);
  const only = (policy: RateLimitPolicy) => (context: ExecutionContext) => RateLimitGuard.policyOf(context) !== policy;
  return [
    {
      name: 'registry',
      ttl: minute,
      limit: limits.registry,
      skipIf: only('registry'),
      getTracker: (_req: unknown, context: ExecutionContext) => RateLimitGuard.trackerOf('registry', context),
    },
    {
      name: 'tasks',
      ttl: minute,
      limit: limits.tasks,
      skipIf: only('tasks'),
      getTracker: (_req: unknown, context: ExecutionContext) => RateLimitGuard.trackerOf('tasks', context),
    },
    {
      name: 'conversation',
      ttl: minute,
      limit: limits.conversation,
      skipIf: only('conversation'),
      getTracker: (_req: unknown, context: ExecutionContext) => RateLimitGuard.trackerOf('conversation', context),
    },
  ];
}
