import { Injectable } from '@nestjs/common';
import { HealthIndicatorResult } from '@nestjs/terminus';
import { AgentHost } from '../a2a/hosting/agent-host';
import { AgentRouter } from '../orchestration/router/agent-router';
import { decodeCursor, RoutingLog } from '../orchestration/routing-log/routing-log';
import { VERSION } from '../paths';
import { AppConfig } from '../platform/config/app-config';
import { DomainError } from '../platform/errors/domain-error';
import { HealthChecks } from '../platform/health/health-checks';
import { tracingEndpoint } from '../platform/telemetry/tracing';
import { AgentRepository } from '../registry/agent.repository';
import { RegistryService } from '../registry/registry.service';
import { reachableEndpoints } from '../registry/remote/remote-client.factory';
import { HubEndpointsResolver } from '../a2a/card/hub-endpoints';
import { ROUTING_LOG_DEFAULT_LIMIT, RoutingLogQuery } from './dto/routing-log.query';

export type HealthStatus = 'ok' | 'degraded' | 'down';

/**
 * What the hub can say about itself: one consolidated health report, the routing log as a feed,
 * and how it resolves an agent. It reads the other modules through their services only.
 */
@Injectable()
export class DiagnosticsService {
  constructor(
    private readonly checks: HealthChecks,
    private readonly router: AgentRouter,
    private readonly host: AgentHost,
    private readonly agents: AgentRepository,
    private readonly registry: RegistryService,
    private readonly decisions: RoutingLog,
    private readonly endpoints: HubEndpointsResolver,
    private readonly config: AppConfig,
  ) {}

  /** Usable (`ok`, or `degraded` with reasons) or not (`down`): the database, Redis, draining, the router. */
  async health() {
    const [database, redis, lifecycle, router, registry] = await Promise.all([
      this.checks.database().then(indicator),
      this.checks.keyValueStore().then(indicator),
      this.checks.accepting().then(indicator),
      this.router.readiness(),
      this.registryCounts(),
    ]);
    const reasons: string[] = [];
    const down = (why: string) => reasons.push(why);
    if (database.status !== 'up') down(`database: ${database.message ?? 'down'}`);
    if (redis.status !== 'up') down(`redis: ${redis.message ?? 'down'}`);
    if (lifecycle.status !== 'up') down('the replica is shutting down');
    const llmDown = router.router === 'llm' && !router.ready;
    if (llmDown && router.fallback === 'error') down(`router: ${router.endpoint.error ?? 'not ready'}`);
    if (registry.status !== 'up') down(`registry: ${registry.error}`);
    const warnings: string[] = [];
    if (llmDown && router.fallback !== 'error')
      warnings.push(`router: ${router.endpoint.error ?? 'not ready'}; the built-in router answers instead`);
    if (registry.unreachable > 0) warnings.push(`${registry.unreachable} remote agent(s) unreachable`);
    if (router.embeddings.state === 'failed')
      warnings.push(
        `router: the sentence-embedding model could not load (${router.embeddings.reason}); routing on card words only`,
      );
    const status: HealthStatus = reasons.length > 0 ? 'down' : warnings.length > 0 ? 'degraded' : 'ok';
    return {
      status,
      reasons,
      warnings,
      version: VERSION,
      uptime_seconds: Math.floor(process.uptime()),
      router,
      registry,
      database,
      redis,
      lifecycle,
      telemetry: this.telemetry(),
    };
  }

  async routingLog(query: RoutingLogQuery) {
    const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
    if (query.cursor !== undefined && !after)
      throw DomainError.validation([{ field: 'cursor', reason: 'is not a cursor this feed gave' }]);
    const since = query.since === undefined ? undefined : new Date(query.since);
    const until = query.until === undefined ? undefined : new Date(query.until);
    if (since && until && since >= until)
      throw DomainError.validation([{ field: 'until', reason: 'must be after since' }]);
    if (
      query.minConfidence !== undefined &&
      query.maxConfidence !== undefined &&
      query.minConfidence > query.maxConfidence
    )
      throw DomainError.validation([{ field: 'maxConfidence', reason: 'must not be below minConfidence' }]);
    const limit = query.limit ?? ROUTING_LOG_DEFAULT_LIMIT;
    const { rows, nextCursor } = await this.decisions.page({ ...query, since, until, after, limit });
    return {
      items: rows.map((row) => ({
        id: row.id,
        timestamp: row.createdAt.toISOString(),
        contextId: row.contextId,
        taskId: row.taskId,
        owner: row.owner,
        request: row.requestText,
        agentId: row.agents[0] ?? null,
        additionalAgents: row.agents.slice(1),
        confidence: row.confidence,
        reasoning: row.reasoning,
        candidates: row.candidates,
        answer: row.answerText,
        router: row.router,
        outcome: row.outcome,
        errorCode: row.errorCode,
        durationMs: row.durationMs,
      })),
      limit,
      next_cursor: nextCursor,
    };
  }

  /** How the hub reaches agent `id`: hosted here (`local`) or called over A2A (`a2a`), and its last check. */
  async resolution(id: string) {
    const record = await this.registry.getExtended(id, this.endpoints.configured());
    const local = record.kind === 'local';
    const hosted = this.host.get(id) !== undefined;
    return {
      agentId: record.agent_id,
      name: record.name,
      source: local ? ('local' as const) : ('a2a' as const),
      resolved: hosted && record.status === 'connected',
      hosted,
      status: record.status,
      endpoint: local ? record.base_url : (reachableEndpoints(record.card, record.base_url)[0]?.url ?? record.base_url),
      interfaces: local ? [] : reachableEndpoints(record.card, record.base_url),
      baseUrl: record.base_url,
      cardUrl: record.card_url,
      authMode: record.auth_mode,
      card: record.card,
      lastCheck: local
        ? { ok: true, at: null, error: null, note: 'built in: served by this hub, no check needed' }
        : { ok: record.status === 'connected', at: record.last_seen_at, error: record.last_check_error },
      updatedAt: record.updated_at,
    };
  }

  private async registryCounts() {
    const hosted = this.host.list();
    const local = hosted.filter((agent) => agent.profile.kind !== 'remote').length;
    try {
      const remote = await this.agents.list();
      const count = (status: string) => remote.filter((agent) => agent.status === status).length;
      return {
        status: 'up' as const,
        local,
        remote: remote.length,
        connected: count('connected'),
        unreachable: count('unreachable'),
        disabled: count('disabled'),
        hosted: hosted.length,
      };
    } catch (error) {
      return { status: 'down' as const, local, error: (error as Error).message, unreachable: 0 };
    }
  }

  private telemetry() {
    const endpoint = tracingEndpoint();
    return {
      metrics: {
        endpoint: '/metrics',
        scope: 'internal',
        unauthenticated_port: this.config.metricsPort || null,
      },
      tracing: endpoint ? { enabled: true, exporter: 'otlp', endpoint } : { enabled: false, exporter: 'none' },
    };
  }
}

/** A terminus indicator result as one flat object: {status: up|down, ...details}. */
function indicator(result: HealthIndicatorResult): { status: string; message?: string; mode?: string } {
  const [value] = Object.values(result);
  return value as { status: string; message?: string; mode?: string };
}
