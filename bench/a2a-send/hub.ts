import 'reflect-metadata';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client as PgClient } from 'pg';
import { createClient } from 'redis';
import type { AgentProfile } from '../../src/a2a/agent-profile';
import { AgentHost } from '../../src/a2a/hosting/agent-host';
import { createApp, startApp } from '../../src/bootstrap';
import { ENVIRONMENT_VARIABLES } from '../../src/platform/config/environment';
import { freePort } from '../../test/support/free-port';
import { EchoExecutor, echoExecutor } from './echo-executors';
import { Variant, VARIANT_INFO } from './variants';

/** The message echo as a local agent; the other variants differ only in id and name. */
export const ECHO_PROFILE: AgentProfile = {
  id: VARIANT_INFO.message.localId,
  kind: 'local',
  name: 'Echo',
  description: 'Answers every message with its own text',
  version: '1.0.0',
  skills: [
    {
      id: 'echo',
      name: 'Echo',
      description: 'Repeats what it is told',
      tags: ['echo', 'benchmark'],
      examples: ['hello'],
    },
  ],
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['text/plain'],
};

export interface HubOptions {
  /** Admin URL of a PostgreSQL server; a fresh database is made on it. Unset: the embedded database. */
  databaseUrl?: string;
  /** Unset: the in-process key-value store and rate limiter. */
  redisUrl?: string;
  logLevel: string;
  /** Settings on top of the benchmark's own (--hub-env). */
  env?: Record<string, string>;
  /** The echo variants to host as local agents (VARIANT_INFO's localId); default: only `message`. */
  localVariants?: Variant[];
  /** An echo server (its origin) whose variants `remoteVariants` to register as remote agents. */
  remoteOrigin?: string;
  remoteVariants?: Variant[];
  /** Also host this many local echo agents, `topic-<i>`, each with its own topic word (topic<i>) on its card. */
  topicAgents?: number;
}

export interface StartedHub {
  baseUrl: string;
  /** A key with the scopes Home Assistant gets (`agents:read`, `messages`), made through the API. */
  apiKey: string;
  /** How the hub was set up, for the report. */
  setup: Record<string, string | number | boolean>;
  /** TCP connections the hub's HTTP server accepted so far. */
  connections(): number;
  close(): Promise<void>;
}

/**
 * Switchboard as the server runs it - createApp() + startApp() from src/bootstrap.ts, configured
 * by environment variables set before createApp() - on fresh backends (a new database, a unique
 * Redis key prefix, a temporary DATA_DIR) that close() removes again. Rate limits are generous so
 * the limiter counts every request but never refuses one.
 */
export async function startHub(options: HubOptions): Promise<StartedHub> {
  const cleanups: (() => Promise<void>)[] = [];
  const cleanup = async () => {
    for (const step of cleanups.reverse()) await step().catch((error: unknown) => console.error(error));
  };
  try {
    const dataDir = mkdtempSync(join(tmpdir(), 'sb-bench-'));
    cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
    const unique = `sb_bench_${process.pid}_${randomBytes(4).toString('hex')}`;
    const adminKey = `bench-admin-${randomBytes(24).toString('hex')}`;
    const env: Record<string, string> = {
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: '0',
      GRPC_PORT: String(await freePort()),
      LOG_LEVEL: options.logLevel,
      ADMIN_API_KEY: adminKey,
      RATE_LIMIT_CONVERSATION_PER_MIN: '100000000',
      RATE_LIMIT_REGISTRY_PER_MIN: '100000',
      ALLOW_PRIVATE_NETWORK_TARGETS: 'true',
      // Remote agents are health-checked on a timer; the benchmark wants no background traffic.
      AGENT_HEALTH_CHECK_INTERVAL_SECONDS: '0',
      DATA_DIR: dataDir,
      SECRETS_KEY: randomBytes(32).toString('base64'),
      ...options.env,
    };
    if (options.databaseUrl) {
      const adminUrl = options.databaseUrl;
      await withPg(adminUrl, (c) => c.query(`CREATE DATABASE ${unique}`));
      cleanups.push(() => withPg(adminUrl, (c) => c.query(`DROP DATABASE IF EXISTS ${unique} WITH (FORCE)`)));
      const url = new URL(adminUrl);
      url.pathname = `/${unique}`;
      env.DATABASE_URL = url.toString();
    }
    if (options.redisUrl) {
      const redisUrl = options.redisUrl;
      env.REDIS_URL = redisUrl;
      env.REDIS_KEY_PREFIX = `${unique}:`;
      cleanups.push(() => deleteRedisKeys(redisUrl, `${unique}:`));
    }
    // Only these settings count: none from the developer's shell or a .env file (which
    // ConfigModule merged into process.env when the app module was imported) can skew the run.
    for (const name of ENVIRONMENT_VARIABLES) delete process.env[name];
    Object.assign(process.env, env);

    let app: NestExpressApplication | undefined;
    try {
      app = await createApp();
      await startApp(app);
    } catch (error) {
      await app?.close().catch(() => undefined);
      throw error;
    }
    const started = app;
    cleanups.push(() => started.close());
    for (const variant of options.localVariants ?? ['message']) {
      started.get(AgentHost).host({ profile: localProfile(variant), executor: echoExecutor(variant) });
    }
    for (let i = 0; i < (options.topicAgents ?? 0); i++) {
      started.get(AgentHost).host({ profile: topicProfile(i), executor: new EchoExecutor() });
    }

    const httpServer = started.getHttpServer();
    let connections = 0;
    httpServer.on('connection', () => connections++);
    const { port } = httpServer.address() as AddressInfo;
    const baseUrl = `http://127.0.0.1:${port}`;
    const admin = (path: string, body: unknown) => post(baseUrl, path, adminKey, body);
    const created = (await admin('/api/keys', { name: 'bench-client', scopes: ['agents:read', 'messages'] })) as {
      key: string;
    };
    for (const variant of options.remoteOrigin ? (options.remoteVariants ?? []) : []) {
      // Registered by base URL, as an operator would: the hub reads the card at
      // <base>/.well-known/agent-card.json and calls the JSON-RPC endpoint the card names.
      const { remoteId, basePath } = VARIANT_INFO[variant];
      const record = (await admin('/api/agents', { base_url: `${options.remoteOrigin}${basePath}`, id: remoteId })) as {
        agent_id?: string;
      };
      if (record.agent_id !== remoteId) throw new Error(`remote agent ${remoteId} registered as ${record.agent_id}`);
    }
    return {
      baseUrl,
      apiKey: created.key,
      setup: {
        database: options.databaseUrl ? 'postgres (fresh database)' : 'embedded (PGlite)',
        redis: options.redisUrl ? 'redis (unique key prefix)' : 'in-process',
        logLevel: options.logLevel,
        nodeEnv: env.NODE_ENV,
        conversationRateLimitPerMin: Number(env.RATE_LIMIT_CONVERSATION_PER_MIN),
        grpcPort: Number(env.GRPC_PORT),
        ...options.env,
      },
      connections: () => connections,
      close: cleanup,
    };
  } catch (error) {
    await cleanup();
    throw error;
  }
}

/** A variant's echo as a local agent of the hub. */
export function localProfile(variant: Variant): AgentProfile {
  return { ...ECHO_PROFILE, id: VARIANT_INFO[variant].localId, name: VARIANT_INFO[variant].name };
}

/** A local echo agent whose card names one topic word, so the router can tell the agents apart. */
export function topicProfile(i: number): AgentProfile {
  return {
    ...ECHO_PROFILE,
    id: `topic-${i}`,
    name: `Topic ${i} agent`,
    description: `Answers questions about topic${i}`,
    skills: [
      {
        id: 'answer',
        name: `topic${i} answers`,
        description: `Answers anything about topic${i}`,
        tags: [`topic${i}`],
        examples: [`tell me about topic${i}`],
      },
    ],
  };
}

async function post(baseUrl: string, path: string, apiKey: string, body: unknown): Promise<unknown> {
  const response = await fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Api-Key': apiKey },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`POST ${path}: ${response.status} ${text}`);
  return JSON.parse(text);
}

async function withPg(url: string, work: (client: PgClient) => Promise<unknown>): Promise<void> {
  const client = new PgClient({ connectionString: url });
  await client.connect();
  try {
    await work(client);
  } finally {
    await client.end();
  }
}

/**
 * Deletes the run's keys one scanned batch at a time: a run with Task answers leaves hundreds of
 * thousands (task records, proxy links, conversations), too many for one DEL.
 */
async function deleteRedisKeys(url: string, prefix: string): Promise<void> {
  const client = createClient({ url });
  await client.connect();
  try {
    for await (const batch of client.scanIterator({ MATCH: `${prefix}*`, COUNT: 1000 })) {
      if (batch.length) await client.unlink(batch);
    }
  } finally {
    await client.close();
  }
}
