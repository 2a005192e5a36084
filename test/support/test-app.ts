import type { NestExpressApplication } from '@nestjs/platform-express';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { createApp, startApp } from '../../src/bootstrap';
import { provisionBackends, TestBackends } from './backends';
import { freePort } from './free-port';

export { freePort };

export const TEST_ADMIN_KEY = 'test-admin-key-0123456789abcdefghijklmnop';
const ORIGINAL_ENV = { ...process.env };

export interface TestApp {
  app: NestExpressApplication;
  backends: TestBackends;
  /** http://127.0.0.1:<port> */
  baseUrl: string;
  /** 127.0.0.1:<port> */
  grpcAddress: string;
  http: () => ReturnType<typeof request>;
  close(): Promise<void>;
}

/**
 * Boots the real application (same createApp as main.ts) on fresh backends, HTTP on an
 * ephemeral port and gRPC on a free one. `env` overrides the test defaults.
 */
export async function startTestApp(
  env: Record<string, string | undefined> = {},
  backends?: TestBackends,
): Promise<TestApp> {
  const own = backends ?? (await provisionBackends());
  let app: NestExpressApplication | undefined;
  let grpcPort = 0;
  // A free port can be taken by another test process before gRPC binds it: try another one.
  for (let attempt = 1; !app; attempt++) {
    grpcPort = await freePort();
    const merged: Record<string, string | undefined> = {
      ...ORIGINAL_ENV,
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      PORT: '0',
      GRPC_PORT: String(grpcPort),
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
      ADMIN_API_KEY: TEST_ADMIN_KEY,
      // Routing by card words only, so a test's routing does not depend on when the model finished
      // loading; the suites about routing by meaning turn it on.
      ROUTER_EMBEDDINGS: 'false',
      ...own.env,
      ...env,
    };
    process.env = Object.fromEntries(
      Object.entries(merged).filter((entry): entry is [string, string] => entry[1] !== undefined),
    );
    let candidate: NestExpressApplication | undefined;
    try {
      candidate = await createApp();
      await startApp(candidate);
      app = candidate;
    } catch (error) {
      await candidate?.close().catch(() => undefined);
      if (attempt < 5 && /EADDRINUSE/.test(String((error as Error)?.message))) continue;
      if (!backends) await own.cleanup();
      throw error;
    }
  }
  const { port } = app.getHttpServer().address() as AddressInfo;
  const baseUrl = `http://127.0.0.1:${port}`;
  const started = app;
  return {
    app: started,
    backends: own,
    baseUrl,
    grpcAddress: `127.0.0.1:${grpcPort}`,
    http: () => request(baseUrl),
    close: async () => {
      await started.close();
      if (!backends) await own.cleanup();
    },
  };
}

/** Creates an API key with the admin key and returns it (shown once); fails the test on an error. */
export async function createApiKey(
  t: Pick<TestApp, 'http'>,
  scopes: string[],
  options: { name?: string; owner?: string } = {},
): Promise<string> {
  const res = await t
    .http()
    .post('/api/keys')
    .set('X-Api-Key', TEST_ADMIN_KEY)
    .send({
      name: options.name ?? `key-${scopes.join('-')}`,
      scopes,
      ...(options.owner ? { owner: options.owner } : {}),
    })
    .expect(201);
  return res.body.key as string;
}

/** Registers a remote agent with the admin key, as an operator would; fails the test on an error. */
export async function registerAgent(t: TestApp, baseUrl: string, id: string): Promise<void> {
  await t.http().post('/api/agents').set('X-Api-Key', TEST_ADMIN_KEY).send({ base_url: baseUrl, id }).expect(201);
}

/** A v0.3 JSON-RPC `message/send` with one text part; `params` extras are merged in. */
export function messageSend(text: string, extra: { id?: number | string; messageId?: string; params?: object } = {}) {
  return {
    jsonrpc: '2.0',
    id: extra.id ?? 1,
    method: 'message/send',
    params: {
      message: {
        kind: 'message',
        role: 'user',
        messageId: extra.messageId ?? randomUUID(),
        parts: [{ kind: 'text', text }],
      },
      ...extra.params,
    },
  };
}

/** The JSON-RPC body the Home Assistant integration sends, in its exact shape (messageId null, id 1). */
export function homeAssistantBody(text: string, contextId: string) {
  return {
    jsonrpc: '2.0',
    method: 'message/send',
    id: 1,
    params: {
      message: {
        kind: 'message',
        role: 'user',
        parts: [{ kind: 'text', text, metadata: null }],
        messageId: null,
        contextId,
        taskId: null,
        metadata: null,
        referenceTaskIds: [],
        extensions: [],
      },
    },
  };
}
