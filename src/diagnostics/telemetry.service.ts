import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { createServer, Server } from 'node:http';
import { Gauge } from 'prom-client';
import { A2aTaskRepository } from '../a2a/store/a2a-task.repository';
import { stateNameOf } from '../a2a/task-state-names';
import { AppConfig } from '../platform/config/app-config';
import { GrpcRuntime } from '../platform/grpc/grpc-runtime';
import { HealthChecks } from '../platform/health/health-checks';
import { Metrics } from '../platform/metrics/metrics';
import { TaskRepository } from '../task-host/task.repository';

/** How often gRPC health follows readiness. */
const READINESS_INTERVAL_MS = 5_000;

/**
 * The moving parts of diagnostics: task counts for /metrics (read at each scrape), the
 * METRICS_PORT listener, and gRPC health (`grpc.health.v1`) kept in step with readiness - the
 * database and Redis answer and the replica is not draining.
 */
@Injectable()
export class TelemetryService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Telemetry');
  private server?: Server;
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly metrics: Metrics,
    private readonly config: AppConfig,
    private readonly grpc: GrpcRuntime,
    private readonly checks: HealthChecks,
    a2aTasks: A2aTaskRepository,
    trees: TaskRepository,
  ) {
    new Gauge({
      name: 'switchboard_tasks',
      help: 'Tasks by kind (a2a: A2A task records; tree: task-tree tasks) and state',
      labelNames: ['kind', 'state'] as const,
      registers: [metrics.registry],
      async collect() {
        this.reset();
        // The database down: no task counts in this scrape, rather than no scrape at all.
        const counted = await Promise.all([a2aTasks.countByState(), trees.countByStatus()]).catch(() => undefined);
        if (!counted) return;
        const [a2a, tree] = counted;
        for (const [state, count] of a2a) this.set({ kind: 'a2a', state: stateNameOf(state) }, count);
        for (const [state, count] of tree) this.set({ kind: 'tree', state }, count);
      },
    });
  }

  async onApplicationBootstrap(): Promise<void> {
    this.timer = setInterval(() => void this.followReadiness(), READINESS_INTERVAL_MS);
    this.timer.unref();
    void this.followReadiness();
    if (this.config.metricsPort > 0) await this.listen(this.config.metricsPort);
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    const server = this.server;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private async followReadiness(): Promise<void> {
    const results = await Promise.all(this.checks.readiness().map((check) => check()));
    const ready = results.every((result) => Object.values(result).every((r) => r.status === 'up'));
    this.grpc.setServing(ready);
  }

  private async listen(port: number): Promise<void> {
    const registry = this.metrics.registry;
    const server = createServer((req, res) => {
      if (req.method !== 'GET' || req.url?.split('?')[0] !== '/metrics') {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('Only GET /metrics is served here\n');
        return;
      }
      registry.metrics().then(
        (text) => res.writeHead(200, { 'content-type': registry.contentType, 'cache-control': 'no-store' }).end(text),
        (error: Error) => res.writeHead(500, { 'content-type': 'text/plain' }).end(`${error.message}\n`),
      );
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, this.config.http.host, () => resolve());
    });
    this.server = server;
    this.logger.log(`Prometheus metrics at http://${this.config.http.host}:${port}/metrics`);
  }
}
