/**
 * Switchboard under test, in its own process so the benchmark's client (building a 50k-task
 * body, reading the event stream, checking the result in the database) never shares its event
 * loop. Started by main.ts as
 *   node -r ts-node/register/transpile-only bench/task-tree/server.ts '<json ServerOptions>'
 * with DATABASE_URL (an admin URL) and REDIS_URL (or none) in its environment. It makes fresh
 * backends the way the tests do (test/support/backends.ts: a new database on that server, a
 * unique Redis key prefix), boots the app as the server boots itself (createApp + startApp),
 * answers `ready`, then `stats` and `profile-start`/`profile-stop` requests over IPC, and on
 * `stop` (or SIGINT/SIGTERM, or when the parent goes away) closes the app and drops what it made.
 */
import 'reflect-metadata';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { Profiler } from '../profiler';

export interface ServerOptions {
  /** TASK_CONCURRENCY: tasks of one tree run at once. */
  concurrency: number;
  /** DATABASE_POOL_SIZE; unset: the app's default. */
  poolSize?: number;
  logLevel: string;
  maxBodyBytes: number;
}

export interface ServerInfo {
  pid: number;
  baseUrl: string;
  apiKey: string;
  /** The fresh database, for the benchmark's own checks. */
  databaseUrl: string;
  setup: Record<string, string | number | boolean>;
}

export interface ServerStats {
  /** CPU time used so far (user + system), µs. */
  cpuMicros: number;
  rssBytes: number;
  /** Highest resident set size sampled (every 20 ms) since the last `stats` with reset. */
  peakRssBytes: number;
  heapUsedBytes: number;
}

export type ServerCommand =
  | { id: number; type: 'stats'; reset?: boolean }
  | { id: number; type: 'profile-start' }
  | { id: number; type: 'profile-stop'; path: string }
  | { id: number; type: 'stop' };

export type ServerReply =
  | { type: 'ready'; info: ServerInfo }
  | { type: 'failed'; error: string }
  | { type: 'reply'; id: number; result?: unknown; error?: string };

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function start(options: ServerOptions): Promise<{ info: ServerInfo; close(): Promise<void> }> {
  if (!process.env.DATABASE_URL) throw new Error('DATABASE_URL (a PostgreSQL admin URL) must be set');
  // Imported here: backends.ts reads DATABASE_URL and REDIS_URL when it is loaded.
  const { provisionBackends } = await import('../../test/support/backends');
  const { ENVIRONMENT_VARIABLES } = await import('../../src/platform/config/environment');
  const { createApp, startApp } = await import('../../src/bootstrap');
  const backends = await provisionBackends();
  let app: NestExpressApplication | undefined;
  try {
    const apiKey = `bench-admin-${randomBytes(24).toString('hex')}`;
    const env: Record<string, string> = {
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: '0',
      GRPC_PORT: String(await freePort()),
      LOG_LEVEL: options.logLevel,
      ADMIN_API_KEY: apiKey,
      // 50k tasks are ~5 MB of JSON; 64 MiB is the largest MAX_BODY_BYTES allows.
      MAX_BODY_BYTES: String(options.maxBodyBytes),
      // Polling tasks.get every 20 ms would exceed the default 600 calls/min.
      RATE_LIMIT_TASKS_PER_MIN: '100000000',
      AGENT_HEALTH_CHECK_INTERVAL_SECONDS: '0',
      TASK_CONCURRENCY: String(options.concurrency),
      ...(options.poolSize ? { DATABASE_POOL_SIZE: String(options.poolSize) } : {}),
      ...backends.env,
    };
    // Only these settings count: none from the shell or a .env file.
    for (const name of ENVIRONMENT_VARIABLES) delete process.env[name];
    Object.assign(process.env, env);
    app = await createApp();
    await startApp(app);
    const { port } = app.getHttpServer().address() as AddressInfo;
    const started = app;
    return {
      info: {
        pid: process.pid,
        baseUrl: `http://127.0.0.1:${port}`,
        apiKey,
        databaseUrl: env.DATABASE_URL,
        setup: {
          database: backends.mode.database === 'external' ? 'postgres (fresh database)' : 'embedded (PGlite)',
          redis: backends.mode.redis === 'redis' ? 'redis (unique key prefix)' : 'in-process',
          nodeEnv: env.NODE_ENV,
          logLevel: options.logLevel,
          taskConcurrency: options.concurrency,
          databasePoolSize: options.poolSize ?? 'default (10)',
          maxBodyBytes: options.maxBodyBytes,
        },
      },
      close: async () => {
        await started.close().catch((error: unknown) => console.error(error));
        await backends.cleanup();
      },
    };
  } catch (error) {
    await app?.close().catch(() => undefined);
    await backends.cleanup().catch(() => undefined);
    throw error;
  }
}

async function main(): Promise<void> {
  const send = (message: ServerReply) => process.send?.(message);
  const options = JSON.parse(process.argv[2] ?? '{}') as ServerOptions;
  let running: Awaited<ReturnType<typeof start>>;
  try {
    running = await start(options);
  } catch (error) {
    const failed: ServerReply = {
      type: 'failed',
      error: error instanceof Error ? (error.stack ?? error.message) : String(error),
    };
    if (process.send) process.send(failed, () => process.exit(1));
    else process.exit(1);
    return;
  }
  let peakRss = process.memoryUsage.rss();
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage.rss())), 20);
  sampler.unref();
  const stats = (reset: boolean): ServerStats => {
    const cpu = process.cpuUsage();
    const rss = process.memoryUsage.rss();
    const result = {
      cpuMicros: cpu.user + cpu.system,
      rssBytes: rss,
      peakRssBytes: Math.max(peakRss, rss),
      heapUsedBytes: process.memoryUsage().heapUsed,
    };
    if (reset) peakRss = rss;
    return result;
  };
  const profiler = new Profiler();
  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= running
      .close()
      .catch((error: unknown) => console.error(error))
      .then(() => process.exit(0));
    return stopping;
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
  process.on('disconnect', () => void stop());
  process.on('message', (command: ServerCommand) => {
    if (command.type === 'stop') return void stop();
    const work = (async () => {
      switch (command.type) {
        case 'stats':
          return stats(command.reset ?? false);
        case 'profile-start':
          return profiler.start();
        case 'profile-stop':
          return profiler.stop(command.path);
      }
    })();
    work.then(
      (result) => send({ type: 'reply', id: command.id, result }),
      (error: unknown) => send({ type: 'reply', id: command.id, error: String(error) }),
    );
  });
  send({ type: 'ready', info: running.info });
}

if (require.main === module) void main();
