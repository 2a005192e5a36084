import { BeforeApplicationShutdown, Injectable, Logger } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { Server } from 'node:http';
import { AppConfig } from '../config/app-config';
import { GrpcRuntime } from '../grpc/grpc-runtime';

/**
 * Graceful shutdown: readiness turns 503 at once, the listeners stop accepting, in-flight HTTP
 * requests and gRPC calls finish (up to SHUTDOWN_TIMEOUT_MS, then their connections are cut).
 * main.ts drains before closing the app, so no module is torn down under a running request.
 */
@Injectable()
export class ShutdownService implements BeforeApplicationShutdown {
  private readonly logger = new Logger('Shutdown');
  private draining?: Promise<void>;

  constructor(
    private readonly config: AppConfig,
    private readonly adapterHost: HttpAdapterHost,
    private readonly grpc: GrpcRuntime,
  ) {}

  get isDraining(): boolean {
    return this.draining !== undefined;
  }

  drain(): Promise<void> {
    this.draining ??= this.run();
    return this.draining;
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.drain();
  }

  private async run(): Promise<void> {
    const deadline = this.config.shutdownTimeoutMs;
    this.logger.log(`Draining: finishing in-flight requests for up to ${deadline} ms`);
    const http = this.adapterHost.httpAdapter?.getHttpServer() as Server | undefined;
    let httpClosed: Promise<void> = Promise.resolve();
    let timer: NodeJS.Timeout | undefined;
    let sweeper: NodeJS.Timeout | undefined;
    if (http?.listening) {
      httpClosed = new Promise((resolve) => http.close(() => resolve()));
      // Keep-alive connections become idle when their last response is sent: close them then,
      // rather than waiting for their keep-alive timeout.
      http.closeIdleConnections();
      sweeper = setInterval(() => http.closeIdleConnections(), 100);
      timer = setTimeout(() => {
        this.logger.warn(`HTTP requests still running after ${deadline} ms; closing their connections`);
        http.closeAllConnections();
      }, deadline);
    }
    await Promise.all([httpClosed, this.grpc.drain(deadline)]);
    clearTimeout(timer);
    clearInterval(sweeper);
    this.logger.log('Drained');
  }
}
