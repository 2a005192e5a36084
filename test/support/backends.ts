import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { createClient } from 'redis';
import { freshDataDir } from './pglite-template';

/**
 * Each test file gets backends of its own: with DATABASE_URL a new database on that server,
 * otherwise a fresh embedded DATA_DIR; with REDIS_URL a unique key prefix. `cleanup` removes
 * them. The returned `env` is what the app should see.
 */
export interface TestBackends {
  env: Record<string, string>;
  mode: { database: 'external' | 'embedded'; redis: 'redis' | 'in-process' };
  cleanup(): Promise<void>;
}

export const realDatabaseUrl = process.env.DATABASE_URL || undefined;
export const realRedisUrl = process.env.REDIS_URL || undefined;

export function uniqueName(prefix: string): string {
  return `${prefix}_${process.pid}_${randomBytes(4).toString('hex')}`;
}

export async function provisionBackends(): Promise<TestBackends> {
  const env: Record<string, string> = {};
  const cleanups: (() => Promise<void>)[] = [];

  if (realDatabaseUrl) {
    const database = uniqueName('sb_test');
    await withAdminClient(realDatabaseUrl, (c) => c.query(`CREATE DATABASE ${database}`));
    const url = new URL(realDatabaseUrl);
    url.pathname = `/${database}`;
    env.DATABASE_URL = url.toString();
    env.SECRETS_KEY = randomBytes(32).toString('base64');
    // Still used for files such as the secrets key.
    const dataDir = mkdtempSync(join(tmpdir(), 'sb-'));
    env.DATA_DIR = dataDir;
    cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
    cleanups.push(async () => {
      await withAdminClient(realDatabaseUrl, (c) => c.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`));
    });
  } else {
    const dataDir = freshDataDir();
    env.DATA_DIR = dataDir;
    cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
  }

  if (realRedisUrl) {
    const prefix = `${uniqueName('sbtest')}:`;
    env.REDIS_URL = realRedisUrl;
    env.REDIS_KEY_PREFIX = prefix;
    cleanups.push(() => deleteRedisKeys(realRedisUrl, prefix));
  }

  return {
    env,
    mode: { database: realDatabaseUrl ? 'external' : 'embedded', redis: realRedisUrl ? 'redis' : 'in-process' },
    cleanup: async () => {
      for (const cleanup of cleanups.reverse()) await cleanup();
    },
  };
}

async function withAdminClient<T>(url: string, work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export async function deleteRedisKeys(url: string, prefix: string): Promise<void> {
  const client = createClient({ url });
  await client.connect();
  try {
    const keys: string[] = [];
    for await (const batch of client.scanIterator({ MATCH: `${prefix}*`, COUNT: 500 })) keys.push(...batch);
    if (keys.length) await client.del(keys);
  } finally {
    await client.close();
  }
}
