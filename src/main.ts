import 'reflect-metadata';
// First: tracing (when configured) must patch http, fetch, pg and grpc before they are loaded.
import './platform/telemetry/register';
import { Logger } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { createApp, startApp } from './bootstrap';
import { AppConfig } from './platform/config/app-config';
import { ConfigurationError } from './platform/config/environment';
import { Database } from './platform/database/database';
import { routeConsoleToLogger } from './platform/logging/console-to-logger';
import { ShutdownService } from './platform/lifecycle/shutdown.service';
import { stopTracing, tracingEndpoint } from './platform/telemetry/tracing';

async function main(): Promise<void> {
  const app = await createApp();
  try {
    await startApp(app);
  } catch (error) {
    await app.close().catch(() => undefined);
    throw error;
  }
  stopOnSignals(app);
  routeConsoleToLogger();
  const config = app.get(AppConfig);
  const logger = new Logger('Switchboard');
  logger.log(
    `HTTP on ${config.http.host}:${config.http.port} (OpenAPI at /docs), gRPC on ${config.grpc.host}:${config.grpc.port}`,
  );
  logger.log(`Database: ${Database.describe(config)}; key-value store and events: ${config.redis.mode}`);
  const traces = tracingEndpoint();
  if (traces) logger.log(`Tracing: OTLP to ${traces}`);
}

/** SIGTERM/SIGINT: drain and close everything, then exit 0. A second signal exits at once. */
function stopOnSignals(app: NestExpressApplication): void {
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) {
      process.stderr.write(`${signal} again: exiting without waiting\n`);
      process.exit(1);
    }
    stopping = true;
    new Logger('Switchboard').log(`${signal} received: shutting down`);
    app
      .get(ShutdownService)
      .drain()
      .then(() => app.close())
      .then(() => stopTracing())
      .then(
        () => process.exit(0),
        (error: unknown) => {
          process.stderr.write(`Shutdown failed: ${describeError(error)}\n`);
          process.exit(1);
        },
      );
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((error: unknown) => {
  const message =
    error instanceof ConfigurationError ? error.message : `Switchboard failed to start: ${describeError(error)}`;
  process.stderr.write(`${message}\n`);
  process.exit(1);
});

function describeError(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}
