import { SetMetadata } from '@nestjs/common';

/**
 * Named rate-limit policies (per minute, configurable by env):
 * - `registry`: registry and management routes, per API key (RATE_LIMIT_REGISTRY_PER_MIN);
 * - `conversation`: messages to agents, per API key and agent (RATE_LIMIT_CONVERSATION_PER_MIN);
 * - `tasks`: the task-tree API, per API key (RATE_LIMIT_TASKS_PER_MIN).
 */
export const RATE_LIMIT_POLICIES = ['registry', 'conversation', 'tasks'] as const;
export type RateLimitPolicy = (typeof RATE_LIMIT_POLICIES)[number];

export const RATE_LIMIT_POLICY = 'switchboard:rate-limit-policy';

/** Counts the route or RPC (or every route of a controller) against a named policy. */
export const RateLimit = (policy: RateLimitPolicy): MethodDecorator & ClassDecorator =>
  SetMetadata(RATE_LIMIT_POLICY, policy);
