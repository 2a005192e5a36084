import { realDatabaseUrl, provisionBackends, TestBackends } from './support/backends';
import { call, healthClient } from './support/grpc-clients';
import { hasRedisServer, PrivateRedis } from './support/private-redis';
import { RemoteAgent, startLightsAgent, startThermostatAgent } from './support/remote-agents';
import { createApiKey, messageSend, registerAgent, startTestApp, TEST_ADMIN_KEY, TestApp } from './support/test-app';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * Two replicas of the app on one PostgreSQL and one Redis - a redis-server of the test's own, so
 * it can be stopped - as Kubernetes runs them behind a Service. Needs the real services: the
 * embedded defaults are one replica by design, so there the suite is skipped.
 */
const runnable = realDatabaseUrl !== undefined && hasRedisServer;
if (!runnable)
  console.warn('two-replicas.e2e-spec.ts skipped: it needs DATABASE_URL (PostgreSQL) and a redis-server binary');

(runnable ? describe : describe.skip)('two replicas on one PostgreSQL and one Redis (e2e)', () => {
  const REGISTRY_LIMIT = 20;
  let redis: PrivateRedis;
  let backends: TestBackends;
  let a: TestApp;
  let b: TestApp;
  let lights: RemoteAgent;
  let thermostat: RemoteAgent;
  let aClosed = false;

  beforeAll(async () => {
    [redis, backends, lights, thermostat] = await Promise.all([
      PrivateRedis.start(),
      provisionBackends(),
      startLightsAgent(),
      startThermostatAgent(),
    ]);
    backends.env.REDIS_URL = redis.url;
    const env = {
      ALLOW_PRIVATE_NETWORK_TARGETS: 'true',
      RATE_LIMIT_REGISTRY_PER_MIN: String(REGISTRY_LIMIT),
      RATE_LIMIT_CONVERSATION_PER_MIN: '1000',
      RATE_LIMIT_TASKS_PER_MIN: '1000',
      TASK_LEASE_MS: '2000',
      TASK_POLL_INTERVAL_MS: '200',
    };
    a = await startTestApp(env, backends);
    b = await startTestApp(env, backends);
    await registerAgent(a, lights.baseUrl, 'lights');
    await registerAgent(a, thermostat.baseUrl, 'thermostat');
    // B learns of agents registered on A through the event bus.
    await eventually(async () => {
      const cards = await b.http().get('/api/agents/thermostat/.well-known/agent-card.json');
      const card = await b.http().get('/api/agents/lights/.well-known/agent-card.json');
      return cards.status === 200 && card.status === 200;
    });
  }, 60_000);

  afterAll(async () => {
    if (!aClosed) await a?.close().catch(() => undefined);
    await b?.close().catch(() => undefined);
    await backends?.cleanup();
    await redis?.down();
    await Promise.all([lights?.close(), thermostat?.close()]);
  });

  const a2a = (app: TestApp, agent: string, body: object) =>
    app.http().post(`/api/agents/${agent}/v1`).set('X-Api-Key', TEST_ADMIN_KEY).send(body).expect(200);
  const tasks = async (app: TestApp, method: string, params: object): Promise<Json> => {
    const res = await app
      .http()
      .post('/tasks')
      .set('X-Api-Key', TEST_ADMIN_KEY)
      .send({ jsonrpc: '2.0', id: 1, method, params });
    expect(res.body.error).toBeUndefined();
    return res.body.result as Json;
  };

  it('counts the rate limit exactly across both', async () => {
    const key = await createApiKey(a, ['agents:read'], { name: 'counted' });
    const statuses = await Promise.all(
      Array.from({ length: REGISTRY_LIMIT + 10 }, (_, i) =>
        (i % 2 === 0 ? a : b)
          .http()
          .get('/api/agents')
          .set('X-Api-Key', key)
          .then((res) => res.status),
      ),
    );
    expect(statuses.filter((s) => s === 200)).toHaveLength(REGISTRY_LIMIT);
    expect(statuses.filter((s) => s === 429)).toHaveLength(10);
  });

  it('reads and cancels on one replica an A2A task created on the other', async () => {
    const sent = await a2a(
      a,
      'lights',
      messageSend('slow sunrise in the hall', { params: { configuration: { blocking: false } } }),
    );
    const taskId = sent.body.result.id as string;
    expect(sent.body.result.status.state).toMatch(/submitted|working/);
    const read = await a2a(b, 'lights', { jsonrpc: '2.0', id: 2, method: 'tasks/get', params: { id: taskId } });
    expect(read.body.result).toMatchObject({ id: taskId, status: { state: 'working' } });
    const cancelled = await a2a(b, 'lights', { jsonrpc: '2.0', id: 3, method: 'tasks/cancel', params: { id: taskId } });
    expect(cancelled.body.result).toMatchObject({ id: taskId, status: { state: 'canceled' } });
    const after = await a2a(a, 'lights', { jsonrpc: '2.0', id: 4, method: 'tasks/get', params: { id: taskId } });
    expect(after.body.result.status.state).toBe('canceled');
    // The replica running the remote call passes the cancel on to the agent.
    await eventually(async () => lights.requests.some((r) => (r.body as Json)?.method === 'tasks/cancel'));
  });

  it('continues a conversation on the other replica', async () => {
    const converse = (app: TestApp, text: string, conversationId: string | null) =>
      app
        .http()
        .post('/api/conversation')
        .set('X-Api-Key', TEST_ADMIN_KEY)
        .send({ text, context: { conversationId }, promptOverride: null })
        .expect(200);
    const first = await converse(a, 'set the thermostat', null);
    expect(first.body).toMatchObject({ text: 'What temperature would you like?', needsInput: true });
    const second = await converse(b, '22', first.body.conversationId as string);
    expect(second.body).toEqual({
      text: 'Thermostat set to 22 degrees',
      type: 'response',
      conversationId: first.body.conversationId,
      needsInput: false,
    });
  });

  it('streams to an SSE client on one replica the task-tree events of work on the other', async () => {
    const created = await tasks(a, 'tasks.create', [
      { name: 'watched-root' },
      { name: 'watched-child', parent_id: 'watched-root', schemas: { method: 'sleep' }, inputs: { ms: 200 } },
    ]);
    const watch = await openWatch(b, created.id as string);
    await tasks(a, 'tasks.execute', { task_id: created.id });
    const events = await watch.rest();
    expect(events.map((e) => e.event)).toContain('task_completed');
    expect(events.at(-1)).toMatchObject({ event: 'final', data: { status: 'completed', final: true } });
  });

  it('answers 503 and says why while Redis is down, and serves again when it is back', async () => {
    await redis.down();
    try {
      for (const app of [a, b]) {
        const refused = await app.http().get('/api/agents').set('X-Api-Key', TEST_ADMIN_KEY).expect(503);
        expect(JSON.stringify(refused.body)).toMatch(/unavailable|Redis/i);
        const ready = await app.http().get('/health/ready').expect(503);
        expect(JSON.stringify(ready.body)).toContain('redis');
        const health = await app.http().get('/internal/orchestration/health').set('X-Api-Key', TEST_ADMIN_KEY);
        expect(health.status).toBe(503);
        expect(health.body.reasons.join(' ')).toMatch(/^redis: /);
        // gRPC health follows readiness (checked every 5 s).
        await eventually(async () => (await grpcHealth(app)) === 'NOT_SERVING', 10_000);
      }
    } finally {
      await redis.up();
    }
    for (const app of [a, b]) {
      await eventually(
        async () => (await app.http().get('/api/agents').set('X-Api-Key', TEST_ADMIN_KEY)).status === 200,
      );
      await eventually(async () => (await grpcHealth(app)) === 'SERVING', 10_000);
    }
  });

  it('drains in-flight requests when a replica stops, and the other finishes its task tree, each task once', async () => {
    const long = await tasks(a, 'tasks.create', [
      { name: 'relay-root' },
      { name: 'step-1', parent_id: 'relay-root', schemas: { method: 'sleep' }, inputs: { ms: 700 } },
      {
        name: 'step-2',
        parent_id: 'relay-root',
        dependencies: ['step-1'],
        schemas: { method: 'sleep' },
        inputs: { ms: 700 },
      },
      {
        name: 'step-3',
        parent_id: 'relay-root',
        dependencies: ['step-2'],
        schemas: { method: 'sleep' },
        inputs: { ms: 700 },
      },
    ]);
    const watch = await openWatch(b, long.id as string);
    await tasks(a, 'tasks.execute', { task_id: long.id });

    // In flight on A when it stops: a streamed execution of its own.
    const short = await tasks(a, 'tasks.create', [
      { name: 'in-flight', schemas: { method: 'sleep' }, inputs: { ms: 800 } },
    ]);
    const inFlight = a
      .http()
      .post('/tasks')
      .set('X-Api-Key', TEST_ADMIN_KEY)
      .send({ jsonrpc: '2.0', id: 9, method: 'tasks.execute', params: { task_id: short.id, use_streaming: true } })
      .buffer(true)
      .parse((response, callback) => {
        let text = '';
        response.on('data', (chunk: Buffer) => (text += chunk.toString()));
        response.on('end', () => callback(null, text));
      });
    const answered = inFlight.then((res) => res);
    await new Promise((resolve) => setTimeout(resolve, 200));
    aClosed = true;
    await a.close();
    const streamed = await answered;
    expect(streamed.status).toBe(200);
    expect(streamed.body as string).toMatch(/"final":true/);
    expect(streamed.body as string).toMatch(/"status":"completed"/);

    const events = await watch.rest();
    expect(events.at(-1)).toMatchObject({ event: 'final', data: { status: 'completed' } });
    const completions = events.filter((e) => e.event === 'task_completed').map((e) => e.data.task_id as string);
    expect(new Set(completions).size).toBe(completions.length);
    const tree = await tasks(b, 'tasks.tree', { task_id: long.id });
    const all = [tree.task, ...(tree.children as Json[]).map((c) => c.task)] as Json[];
    expect(all.map((t) => t.status)).toEqual(['completed', 'completed', 'completed', 'completed']);
    for (const task of all) expect(completions.filter((id) => id === task.id)).toHaveLength(1);
  }, 60_000);
});

/** Opens tasks.watch over SSE and resolves once the stream is live; `rest()` reads its events to the end. */
async function openWatch(app: TestApp, taskId: string): Promise<{ rest(): Promise<Json[]> }> {
  const response = await fetch(`${app.baseUrl}/tasks`, {
    method: 'POST',
    headers: { 'X-Api-Key': TEST_ADMIN_KEY, 'Content-Type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 'watch', method: 'tasks.watch', params: { task_id: taskId } }),
  });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  const frames: string[] = [];
  const readFrame = async (): Promise<string | undefined> => {
    for (;;) {
      const end = buffer.indexOf('\n\n');
      if (end >= 0) {
        const frame = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (frame.startsWith(':')) continue;
        return frame;
      }
      const { value, done } = await reader.read();
      if (done) return undefined;
      buffer += decoder.decode(value, { stream: true });
    }
  };
  const envelope = await readFrame();
  expect(JSON.parse(envelope!.replace(/^data: /, ''))).toMatchObject({ result: { streaming: true } });
  return {
    async rest() {
      for (let frame = await readFrame(); frame !== undefined; frame = await readFrame()) frames.push(frame);
      return frames.map(
        (frame) =>
          JSON.parse(
            frame
              .split('\n')
              .find((l) => l.startsWith('data: '))!
              .slice(6),
          ) as Json,
      );
    },
  };
}

async function grpcHealth(app: TestApp): Promise<string | undefined> {
  const client = healthClient(app.grpcAddress);
  try {
    return (await call(client.Check, client, { service: '' })).response?.status;
  } finally {
    client.close();
  }
}

async function eventually(check: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
