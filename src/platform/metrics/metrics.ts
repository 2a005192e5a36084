import { Injectable } from '@nestjs/common';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** Seconds: from a fast cache hit to an agent that thinks for a while. */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

export type AgentCallOutcome = 'success' | 'input_required' | 'timeout' | 'error';
export type PushKind = 'a2a' | 'task_tree';

/**
 * The hub's Prometheus instruments, in a registry of this app's own (two apps in one process,
 * as in the tests, never mix their counts). Labels are bounded: route patterns, never raw URLs;
 * agent ids come from the registry; states and outcomes from fixed sets.
 */
@Injectable()
export class Metrics {
  readonly registry = new Registry();

  /** HTTP requests by transport (http, or jsonrpc for JSON-RPC endpoints), route pattern and status; `_count` counts them. */
  readonly httpRequests = new Histogram({
    name: 'switchboard_http_request_duration_seconds',
    help: 'HTTP requests: latency by transport (http or jsonrpc), method, route pattern and status',
    labelNames: ['transport', 'method', 'route', 'status'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });

  readonly grpcRequests = new Histogram({
    name: 'switchboard_grpc_request_duration_seconds',
    help: 'gRPC calls: latency by service, method and status code',
    labelNames: ['service', 'method', 'code'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });

  readonly routingDecisions = new Counter({
    name: 'switchboard_routing_decisions_total',
    help: "The orchestrator's routing decisions by primary agent (none: no agent chosen), outcome and router",
    labelNames: ['agent', 'outcome', 'router'] as const,
    registers: [this.registry],
  });

  readonly agentCalls = new Histogram({
    name: 'switchboard_agent_call_duration_seconds',
    help: "The orchestrator's calls to agents: latency by agent and outcome",
    labelNames: ['agent', 'outcome'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });

  readonly rateLimitRefusals = new Counter({
    name: 'switchboard_rate_limit_refusals_total',
    help: 'Requests refused by a rate limit (429), by policy',
    labelNames: ['policy'] as const,
    registers: [this.registry],
  });

  readonly eventBusFailures = new Counter({
    name: 'switchboard_event_bus_failures_total',
    help: 'Event bus failures: a publish that failed, or a subscriber that threw',
    labelNames: ['operation'] as const,
    registers: [this.registry],
  });

  readonly pushDeliveries = new Counter({
    name: 'switchboard_push_deliveries_total',
    help: 'Webhook deliveries (A2A push notifications, task-tree push) by kind and outcome, retries included once',
    labelNames: ['kind', 'outcome'] as const,
    registers: [this.registry],
  });

  /** How deep each write-behind queue is, read when metrics are scraped. */
  private readonly writeBehindDepths = new Map<string, () => number>();

  readonly writeBehindDepth = new Gauge({
    name: 'switchboard_write_behind_depth',
    help: 'Rows waiting to be written to PostgreSQL behind the answers, by queue (a2a_tasks, routing_log, push_deliveries)',
    labelNames: ['queue'] as const,
    registers: [this.registry],
    collect: () => {
      for (const [queue, depth] of this.writeBehindDepths) this.writeBehindDepth.set({ queue }, depth());
    },
  });

  readonly writeBehindRows = new Counter({
    name: 'switchboard_write_behind_rows_total',
    help: 'Rows the write-behind queues wrote, or dropped (refused by the database for their data, or left at shutdown)',
    labelNames: ['queue', 'outcome'] as const,
    registers: [this.registry],
  });

  readonly retentionPrunedRows = new Counter({
    name: 'switchboard_retention_pruned_rows_total',
    help: 'Rows removed past their retention (RETENTION_* settings), by kind of record',
    labelNames: ['kind'] as const,
    registers: [this.registry],
  });

  readonly writeBehindFailures = new Counter({
    name: 'switchboard_write_behind_failures_total',
    help: 'Write-behind batches that failed and were retried (the database unreachable or slow), by queue',
    labelNames: ['queue'] as const,
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry, prefix: 'switchboard_' });
  }

  agentCall(agent: string, outcome: AgentCallOutcome, seconds: number): void {
    this.agentCalls.observe({ agent, outcome }, seconds);
  }

  /** Reports a write-behind queue's depth on every scrape. */
  watchWriteBehind(queue: string, depth: () => number): void {
    this.writeBehindDepths.set(queue, depth);
  }

  pushDelivery(kind: PushKind, delivered: boolean): void {
    this.pushDeliveries.inc({ kind, outcome: delivered ? 'delivered' : 'failed' });
  }
}
