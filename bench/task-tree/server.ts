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
import { randomBytes } from 'node:crypto';
import { runChild, RunningServer } from '../support/child-process';
import { startInProcessHub } from '../support/in-process-hub';

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
  const apiKey = `bench-admin-${randomBytes(24).toString('hex')}`;
  const hub = await startInProcessHub({
    LOG_LEVEL: options.logLevel,
    ADMIN_API_KEY: apiKey,
    // 50k tasks are ~5 MB of JSON; 64 MiB is the largest MAX_BODY_BYTES allows.
    MAX_BODY_BYTES: String(options.maxBodyBytes),
    // Polling tasks.get every 20 ms would exceed the default 600 calls/min.
    RATE_LIMIT_TASKS_PER_MIN: '100000000',
    TASK_CONCURRENCY: String(options.concurrency),
    ...(options.poolSize ? { DATABASE_POOL_SIZE: String(options.poolSize) } : {}),
  });
  return {
    info: {
      pid: process.pid,
      baseUrl: hub.baseUrl,
      apiKey,
      databaseUrl: hub.databaseUrl,
      setup: {
        ...hub.setup,
        taskConcurrency: options.concurrency,
        databasePoolSize: options.poolSize ?? 'default (10)',
        maxBodyBytes: options.maxBodyBytes,
      },
    },
    close: () => hub.close(),
  };
}

if (require.main === module) void runChild(() => start(JSON.parse(process.argv[2] ?? '{}') as ServerOptions));
