import type { NestExpressApplication } from '@nestjs/platform-express';
import type { AddressInfo } from 'node:net';
import { freePort } from '../../test/support/free-port';

/** The services the benchmarks expect when no URL is given (as CI has them). */
export const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/postgres';
export const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';

export interface InProcessHub {
  app: NestExpressApplication;
  baseUrl: string;
  /** The fresh database. */
  databaseUrl: string;
  /** How it runs, for the report: backends, NODE_ENV, LOG_LEVEL. */
  setup: Record<string, string>;
  close(): Promise<void>;
}

/**
 * Switchboard in this process, booted as the server boots itself (createApp + startApp) with
 * NODE_ENV=production, on fresh backends made the way the tests make theirs (a new database on
 * DATABASE_URL, a unique Redis key prefix on REDIS_URL), without background health checks, and
 * with `settings` on top. Nothing from the shell or a .env file counts.
 */
export async function startInProcessHub(settings: Record<string, string>): Promise<InProcessHub> {
  if (!process.env.DATABASE_URL) throw new Error('DATABASE_URL (a PostgreSQL admin URL) must be set');
  // Imported here: backends.ts reads DATABASE_URL and REDIS_URL when it is loaded.
  const { provisionBackends } = await import('../../test/support/backends');
  const { ENVIRONMENT_VARIABLES } = await import('../../src/platform/config/environment');
  const { createApp, startApp } = await import('../../src/bootstrap');
  const backends = await provisionBackends();
  let app: NestExpressApplication | undefined;
  try {
    const env: Record<string, string> = {
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: '0',
      GRPC_PORT: String(await freePort()),
      AGENT_HEALTH_CHECK_INTERVAL_SECONDS: '0',
      ...settings,
      ...backends.env,
    };
    for (const name of ENVIRONMENT_VARIABLES) delete process.env[name];
    Object.assign(process.env, env);
    app = await createApp();
    await startApp(app);
    const { port } = app.getHttpServer().address() as AddressInfo;
    const started = app;
    return {
      app: started,
      baseUrl: `http://127.0.0.1:${port}`,
      databaseUrl: env.DATABASE_URL,
      setup: {
        database: backends.mode.database === 'external' ? 'postgres (fresh database)' : 'embedded (PGlite)',
        redis: backends.mode.redis === 'redis' ? 'redis (unique key prefix)' : 'in-process',
        nodeEnv: env.NODE_ENV,
        logLevel: env.LOG_LEVEL ?? 'default',
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
