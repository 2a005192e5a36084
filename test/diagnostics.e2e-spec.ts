import { call, healthClient, systemClient } from './support/grpc-clients';
import { RemoteAgent, startLightsAgent } from './support/remote-agents';
import {
  createApiKey,
  freePort,
  messageSend,
  registerAgent,
  startTestApp,
  TEST_ADMIN_KEY,
  TestApp,
} from './support/test-app';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('diagnostics: health, routing log, resolution, metrics (e2e)', () => {
  let t: TestApp;
  let lights: RemoteAgent;
  let metricsPort: number;
  let messagesKey: string;

  beforeAll(async () => {
    lights = await startLightsAgent();
    metricsPort = await freePort();
    t = await startTestApp({ ALLOW_PRIVATE_NETWORK_TARGETS: 'true', METRICS_PORT: String(metricsPort) });
    await registerAgent(t, lights.baseUrl, 'lights');
    messagesKey = await createApiKey(t, ['messages'], { name: 'client', owner: 'admin' });
  });

  afterAll(async () => {
    await t?.close();
    await lights?.close();
  });

  const internal = (path: string) => t.http().get(path).set('X-Api-Key', TEST_ADMIN_KEY);
  const converse = (text: string) =>
    t
      .http()
      .post('/api/conversation')
      .set('X-Api-Key', TEST_ADMIN_KEY)
      .send({ text, context: { conversationId: null }, promptOverride: null })
      .expect(200);

  it('needs the internal scope', async () => {
    await t.http().get('/internal/orchestration/health').expect(401);
    await t.http().get('/internal/orchestration/health').set('X-Api-Key', messagesKey).expect(403);
    await t.http().get('/metrics').expect(401);
    await t.http().get('/metrics').set('X-Api-Key', messagesKey).expect(403);
  });

  it('reports consolidated health', async () => {
    const res = await internal('/internal/orchestration/health').expect(200);
    expect(res.body).toMatchObject({
      reasons: [],
      version: expect.any(String),
      uptime_seconds: expect.any(Number),
      router: { router: 'default', ready: true },
      registry: { status: 'up', remote: 1, connected: 1, unreachable: 0 },
      database: { status: 'up', mode: t.backends.mode.database },
      redis: { status: 'up' },
      lifecycle: { status: 'up' },
      telemetry: { metrics: { endpoint: '/metrics', unauthenticated_port: metricsPort } },
    });
    expect(res.body.registry.local).toBeGreaterThanOrEqual(2);
    // One replica on the in-process store is a supported setup, not a degradation: it is noted.
    expect(res.body.status).toBe('ok');
    if (t.backends.mode.redis === 'in-process')
      expect(res.body.redis).toMatchObject({ mode: 'in-process', note: 'in-process, single replica' });
  });

  it('feeds the routing log newest first, by cursor, with filters', async () => {
    const since = new Date().toISOString();
    for (const text of ['turn on the porch lights', 'dim the kitchen lights', 'switch off the hall lights'])
      await converse(text);
    const first = await internal('/internal/orchestration/routing-log').query({ since, limit: 2 }).expect(200);
    expect(first.body.items).toHaveLength(2);
    expect(first.body.items[0]).toMatchObject({
      request: 'switch off the hall lights',
      agentId: 'lights',
      confidence: expect.any(Number),
      reasoning: expect.any(String),
      candidates: expect.arrayContaining(['lights']),
      answer: 'Done: switch off the hall lights',
      outcome: 'answered',
      router: 'default',
    });
    expect(first.body.next_cursor).toEqual(expect.any(String));
    const second = await internal('/internal/orchestration/routing-log')
      .query({ since, limit: 2, cursor: first.body.next_cursor })
      .expect(200);
    expect(second.body.items.map((i: Json) => i.request)).toEqual(['turn on the porch lights']);
    expect(second.body.next_cursor).toBeNull();

    const filtered = await internal('/internal/orchestration/routing-log')
      .query({ since, agent: 'lights', outcome: 'answered', minConfidence: 0.5, maxConfidence: 1 })
      .expect(200);
    expect(filtered.body.items).toHaveLength(3);
    const none = await internal('/internal/orchestration/routing-log')
      .query({ since, outcome: 'clarification' })
      .expect(200);
    expect(none.body.items).toEqual([]);
    const context = first.body.items[1].contextId as string;
    const byContext = await internal('/internal/orchestration/routing-log').query({ contextId: context }).expect(200);
    expect(byContext.body.items.map((i: Json) => i.request)).toEqual(['dim the kitchen lights']);
  });

  it.each([
    [{ cursor: 'not-a-cursor' }, 'cursor'],
    [{ outcome: 'maybe' }, 'outcome'],
    [{ since: 'yesterday' }, 'since'],
    [{ minConfidence: 0.9, maxConfidence: 0.1 }, 'maxConfidence'],
    [{ minConfidence: 'high' }, 'minConfidence'],
    [{ limit: 0 }, 'limit'],
    [{ since: '2030-01-02T00:00:00Z', until: '2030-01-01T00:00:00Z' }, 'until'],
  ])('refuses a bad routing-log query %j naming %s', async (query, field) => {
    const res = await internal('/internal/orchestration/routing-log').query(query).expect(400);
    expect(JSON.stringify(res.body)).toContain(field);
  });

  it('explains how an agent is resolved', async () => {
    const remote = await internal('/internal/agents/lights/resolution').expect(200);
    expect(remote.body).toMatchObject({
      agentId: 'lights',
      source: 'a2a',
      resolved: true,
      status: 'connected',
      endpoint: expect.stringContaining(new URL(lights.baseUrl).host),
      baseUrl: lights.baseUrl,
      card: { name: 'Lights' },
      lastCheck: { ok: true, at: expect.any(String), error: null },
    });
    const local = await internal('/internal/agents/orchestrator/resolution').expect(200);
    expect(local.body).toMatchObject({
      agentId: 'orchestrator',
      source: 'local',
      resolved: true,
      lastCheck: { ok: true },
    });
    expect(local.body.endpoint).toContain('/api/agents/orchestrator');
    await internal('/internal/agents/nobody/resolution').expect(404);
  });

  it('serves Prometheus metrics with a key, and on METRICS_PORT without one', async () => {
    await converse('turn on the garden lights');
    // The orchestrator's turn answered with a message (no task); the agent called directly makes one.
    await t
      .http()
      .post('/api/agents/lights/v1')
      .set('X-Api-Key', TEST_ADMIN_KEY)
      .send(messageSend('porch on'))
      .expect(200);
    const grpc = systemClient(t.grpcAddress);
    try {
      expect((await call(grpc.GetInfo, grpc, {}, { 'x-api-key': TEST_ADMIN_KEY })).response).toBeDefined();
    } finally {
      grpc.close();
    }
    const res = await internal('/metrics').expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain;.*version=0\.0\.4/);
    const text = res.text;
    expect(text).toMatch(
      /switchboard_http_request_duration_seconds_count\{transport="http",method="POST",route="\/api\/conversation",status="200"\} [1-9]/,
    );
    expect(text).toMatch(
      /switchboard_routing_decisions_total\{agent="lights",outcome="answered",router="default"\} [1-9]/,
    );
    expect(text).toMatch(/switchboard_agent_call_duration_seconds_count\{agent="lights",outcome="success"\} [1-9]/);
    expect(text).toMatch(
      /switchboard_grpc_request_duration_seconds_count\{service="switchboard.v1.SystemService",method="GetInfo",code="OK"\} 1/,
    );
    expect(text).toMatch(/switchboard_tasks\{kind="a2a",state="completed"\} [1-9]/);
    expect(text).toContain('switchboard_process_cpu_seconds_total');
    // Unknown paths are counted under a route pattern, never one series per URL.
    await t.http().get('/no/such/path/123').expect(404);
    const after = (await internal('/metrics').expect(200)).text;
    expect(after).toMatch(/method="GET",route="[^"]+",status="404"\} 1/);
    expect(after).not.toContain('/no/such/path');

    const open = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
    expect(open.status).toBe(200);
    expect(await open.text()).toContain('switchboard_routing_decisions_total');
    expect((await fetch(`http://127.0.0.1:${metricsPort}/elsewhere`)).status).toBe(404);
  });

  it('counts rate-limit refusals', async () => {
    const limited = await startTestApp({ RATE_LIMIT_REGISTRY_PER_MIN: '1' });
    try {
      await limited.http().get('/api/agents').set('X-Api-Key', TEST_ADMIN_KEY).expect(200);
      await limited.http().get('/api/agents').set('X-Api-Key', TEST_ADMIN_KEY).expect(429);
      const text = (await limited.http().get('/metrics').set('X-Api-Key', TEST_ADMIN_KEY).expect(200)).text;
      expect(text).toMatch(/switchboard_rate_limit_refusals_total\{policy="registry"\} 1/);
    } finally {
      await limited.close();
    }
  });

  it('serves gRPC health that follows readiness', async () => {
    const health = healthClient(t.grpcAddress);
    try {
      expect((await call(health.Check, health, { service: '' })).response).toEqual({ status: 'SERVING' });
    } finally {
      health.close();
    }
  });
});

describe('diagnostics: a router that cannot route (e2e)', () => {
  it('answers 503 with the reason when the LLM router is unreachable and may not fall back', async () => {
    const t = await startTestApp({
      ROUTER_MODEL: 'router-model',
      ROUTER_BASE_URL: `http://127.0.0.1:${await freePort()}/v1`,
      ROUTER_FALLBACK: 'error',
    });
    try {
      const res = await t.http().get('/internal/orchestration/health').set('X-Api-Key', TEST_ADMIN_KEY).expect(503);
      expect(res.body).toMatchObject({
        status: 'down',
        reasons: ['router: router endpoint unreachable'],
        router: {
          router: 'llm',
          ready: false,
          model: 'router-model',
          fallback: 'error',
          endpoint: { reachable: false },
        },
      });
    } finally {
      await t.close();
    }
  });
});
