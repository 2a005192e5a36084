/**
 * Switchboard under test, in its own process so the benchmark's client (building a 50k-task
 * body, reading the event stream, checking the result in the database) never shares its event
 * loop. Started by main.ts as
 *   node -r ts-node/register/transpile-only bench/task-tree/server.ts '<json ServerOptions>'
 * with DATABASE_URL (an admin URL) and REDIS_URL (or none) in its environment. It makes fresh
 * backends the way the tests do (test/support/backends.ts: a new database on that server, a
 * unique Redis key prefix), boots the app as the server boots itself (createApp + startApp),
 * and is driven over IPC by bench/support/child-process.ts; closing drops what it made.
 */
import 'reflect-metadata';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { freePort } from '../../test/support/free-port';
import { runChild, RunningServer } from '../support/child-process';

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

/** What `stats` answers (bench/support/child-process.ts). */
export type { ProcessStats as ServerStats } from '../support/child-process';

async function start(options: ServerOptions): Promise<RunningServer<ServerInfo>> {
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

if (require.main === module) void runChild(() => start(JSON.parse(process.argv[2] ?? '{}') as ServerOptions));
