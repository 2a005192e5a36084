import * as grpc from '@grpc/grpc-js';
import { status as GrpcStatus } from '@grpc/grpc-js';
import WebSocket from 'ws';
import { call, switchboardClient, systemClient, SystemClient } from './support/grpc-clients';
import { hasRedisServer, PrivateRedis } from './support/private-redis';
import { startLightsAgent } from './support/remote-agents';
import { messageSend, registerAgent, startTestApp, TEST_ADMIN_KEY, TestApp } from './support/test-app';

type RegistryClient = grpc.Client & {
  ListAgentCards: (r: object, m: grpc.Metadata, cb: (e: grpc.ServiceError | null, r: object) => void) => void;
};

describe('rate limits (e2e)', () => {
  let t: TestApp;
  let grpcRegistry: RegistryClient;
  let grpcSystem: SystemClient;
  let otherKey: string;

  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_REGISTRY_PER_MIN: '4' });
    grpcRegistry = switchboardClient<RegistryClient>('registry', 'RegistryService', t.grpcAddress);
    grpcSystem = systemClient(t.grpcAddress);
  });
  afterAll(async () => {
    grpcRegistry?.close();
    grpcSystem?.close();
    await t?.close();
  });

  it('counts a key across routes and transports, and refuses past the limit with 429 and Retry-After', async () => {
    const before = Math.floor(Date.now() / 1000);
    // 1: creating a key (registry policy), then 2-3 over HTTP on another route, 4 over gRPC.
    const created = await t
      .http()
      .post('/api/keys')
      .set('X-Api-Key', TEST_ADMIN_KEY)
      .send({ name: 'other', scopes: ['messages'] })
      .expect(201);
    otherKey = created.body.key;
    expect(created.headers['x-ratelimit-limit']).toBe('4');
    expect(created.headers['x-ratelimit-remaining']).toBe('3');

    const second = await t.http().get('/api/system').set('X-Api-Key', TEST_ADMIN_KEY).expect(200);
    const third = await t.http().get('/api/keys').set('X-Api-Key', TEST_ADMIN_KEY).expect(200);
    expect(second.headers['x-ratelimit-remaining']).toBe('2');
    expect(third.headers['x-ratelimit-remaining']).toBe('1');
    // The window opened at the first request and lasts 60 s; the header rounds up to whole seconds.
    const reset = Number(third.headers['x-ratelimit-reset']);
    expect(reset).toBeGreaterThanOrEqual(before + 59);
    expect(reset).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + 60);

    const fourth = await call(grpcRegistry.ListAgentCards, grpcRegistry, {}, { 'x-api-key': TEST_ADMIN_KEY });
    expect(fourth.error).toBeUndefined();

    const refused = await t.http().get('/api/system').set('X-Api-Key', TEST_ADMIN_KEY).expect(429);
    expect(refused.headers['content-type']).toMatch(/^application\/json/);
    expect(refused.headers['x-ratelimit-remaining']).toBe('0');
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(refused.body).toMatchObject({
      statusCode: 429,
      code: 'RATE_LIMITED',
      details: { policy: 'registry', limit: 4, retry_after_seconds: retryAfter },
    });

    const grpcRefused = await call(grpcRegistry.ListAgentCards, grpcRegistry, {}, { 'x-api-key': TEST_ADMIN_KEY });
    expect(grpcRefused.error?.code).toBe(GrpcStatus.RESOURCE_EXHAUSTED);
    expect(grpcRefused.error?.metadata.get('retry-after')).toEqual([expect.stringMatching(/^\d+$/)]);
    // SystemService.GetInfo (the smoke test of probes and dashboards) is not limited.
    expect((await call(grpcSystem.GetInfo, grpcSystem, {}, { 'x-api-key': TEST_ADMIN_KEY })).error).toBeUndefined();
  });

  it('keeps separate counters per key', async () => {
    const res = await t.http().get('/api/system').set('X-Api-Key', otherKey).expect(200);
    expect(res.headers['x-ratelimit-remaining']).toBe('3');
  });

  it('does not limit or count health probes', async () => {
    for (let i = 0; i < 10; i++) {
      const res = await t.http().get('/health/live').expect(200);
      expect(res.headers['x-ratelimit-limit']).toBeUndefined();
    }
  });

  it('checks the key before counting: an unauthenticated flood does not use up a key', async () => {
    for (let i = 0; i < 6; i++)
      await t.http().get('/api/system').set('X-Api-Key', 'wrong-key-wrong-key-wrong').expect(401);
    const res = await t.http().get('/api/system').set('X-Api-Key', otherKey).expect(200);
    expect(res.headers['x-ratelimit-remaining']).toBe('2');
  });
});

(hasRedisServer ? describe : describe.skip)('when Redis goes away (e2e)', () => {
  let redis: PrivateRedis;
  let t: TestApp;

  beforeAll(async () => {
    redis = await PrivateRedis.start();
    t = await startTestApp({ REDIS_URL: redis.url, REDIS_KEY_PREFIX: 'outage-test:' });
  });
  afterAll(async () => {
    await t?.close();
    await redis?.down();
  });

  it('refuses rate-limited requests with 503, reports not ready, and recovers when Redis is back', async () => {
    await t.http().get('/api/system').set('X-Api-Key', TEST_ADMIN_KEY).expect(200);

    await redis.down();
    const refused = await t.http().get('/api/system').set('X-Api-Key', TEST_ADMIN_KEY).expect(503);
    expect(refused.body).toMatchObject({ statusCode: 503, code: 'SERVICE_UNAVAILABLE' });
    expect(refused.body.message).toMatch(/Redis/);
    expect(refused.headers['retry-after']).toBe('1');
    const ready = await t.http().get('/health/ready').expect(503);
    expect(ready.body.error.redis).toMatchObject({ status: 'down', mode: 'redis' });
    await t.http().get('/health/live').expect(200);

    await redis.up();
    const deadline = Date.now() + 15_000;
    let status = 0;
    while (Date.now() < deadline && status !== 200) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      status = (await t.http().get('/api/system').set('X-Api-Key', TEST_ADMIN_KEY)).status;
    }
    expect(status).toBe(200);
    await t.http().get('/health/ready').expect(200);
  });

  it('answers A2A calls whose task store is down with a clear message, not internals', async () => {
    const lights = await startLightsAgent();
    const open = await startTestApp({
      REDIS_URL: redis.url,
      REDIS_KEY_PREFIX: 'store-outage-test:',
      RATE_LIMIT_FAIL_OPEN: 'true',
      ALLOW_PRIVATE_NETWORK_TARGETS: 'true',
    });
    try {
      await registerAgent(open, lights.baseUrl, 'lights');
      await redis.down();
      const res = await open
        .http()
        .post('/api/agents/lights/v1')
        .set('X-Api-Key', TEST_ADMIN_KEY)
        .send(messageSend('hello'))
        .expect(200);
      // The A2A form of SERVICE_UNAVAILABLE: the hub's JSON-RPC code, not an internal error. Which
      // message depends on a race: whether the hub's client saw its socket close before the
      // request (unavailable at once) or sent the command first (no answer within its deadline).
      expect(res.body.error).toMatchObject({
        code: -32053,
        message: expect.stringMatching(/^Redis is (unavailable|not answering \(.*\)); try again shortly$/),
        data: { code: 'SERVICE_UNAVAILABLE' },
      });
    } finally {
      await open.close();
      await lights.close();
      await redis.up();
    }
  });

  it("lets requests through when RATE_LIMIT_FAIL_OPEN is set, the shop's too", async () => {
    const open = await startTestApp({
      REDIS_URL: redis.url,
      REDIS_KEY_PREFIX: 'fail-open-test:',
      RATE_LIMIT_FAIL_OPEN: 'true',
    });
    try {
      await redis.down();
      const res = await open.http().get('/api/system').set('X-Api-Key', TEST_ADMIN_KEY).expect(200);
      expect(res.headers['x-ratelimit-limit']).toBeUndefined();
      // The shop's own limit follows the same setting.
      const shop = await open.http().get('/.well-known/agents/api/browse').expect(200);
      expect(shop.headers['x-ratelimit-limit']).toBeUndefined();
    } finally {
      await open.close();
      await redis.up();
    }
  });

  it('counts task-tree WebSocket connections and subscriptions under the tasks limit', async () => {
    const limited = await startTestApp({ RATE_LIMIT_TASKS_PER_MIN: '2' });
    const url = `${limited.baseUrl.replace('http', 'ws')}/tasks/ws`;
    const connect = () =>
      new Promise<WebSocket>((resolve, reject) => {
        const socket = new WebSocket(url, { headers: { 'X-Api-Key': TEST_ADMIN_KEY } });
        socket.once('open', () => resolve(socket));
        socket.once('unexpected-response', (_req, res) =>
          reject(new Error(`HTTP ${res.statusCode} retry-after=${res.headers['retry-after']}`)),
        );
      });
    try {
      const first = await connect(); // 1
      const next = () =>
        new Promise<string>((resolve) => first.once('message', (raw: Buffer) => resolve(raw.toString('utf8'))));
      const answer = next();
      first.send(JSON.stringify({ action: 'subscribe', root_task_id: 'no-such-task' })); // 2
      expect(JSON.parse(await answer)).toMatchObject({ event: 'error', data: { code: -32001 } });
      const refused = next();
      first.send(JSON.stringify({ action: 'subscribe', root_task_id: 'no-such-task' })); // 3: over
      expect(JSON.parse(await refused)).toMatchObject({ event: 'error', data: { code: -32029 } });
      first.close();
      await expect(connect()).rejects.toThrow(/HTTP 429 retry-after=\d+/);
    } finally {
      await limited.close();
    }
  });
});
