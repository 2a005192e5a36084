import { randomUUID } from 'node:crypto';
import { RemoteAgent, startLightsAgent } from './support/remote-agents';
import { registerAgent, startTestApp, TEST_ADMIN_KEY, TestApp, homeAssistantBody } from './support/test-app';

/** The exact body the Home Assistant integration sends (messageId null, id always 1). */

describe('A2A JSON-RPC as field clients send it (e2e)', () => {
  let t: TestApp;
  let lights: RemoteAgent;
  let messagesKey: string;
  const rpc = (agent: string, body: unknown, key = TEST_ADMIN_KEY) =>
    t
      .http()
      .post(`/api/agents/${agent}/v1`)
      .set('X-Api-Key', key)
      .set('Content-Type', 'application/json')
      .send(body as object);

  beforeAll(async () => {
    t = await startTestApp({ ALLOW_PRIVATE_NETWORK_TARGETS: 'true', RATE_LIMIT_REGISTRY_PER_MIN: '1000' });
    lights = await startLightsAgent();
    await registerAgent(t, lights.baseUrl, 'lights');
    messagesKey = (
      await t
        .http()
        .post('/api/keys')
        .set('X-Api-Key', TEST_ADMIN_KEY)
        .send({ name: 'ha', scopes: ['agents:read', 'messages'] })
        .expect(201)
    ).body.key;
  });
  afterAll(async () => {
    await t?.close();
    await lights?.close();
  });

  it("accepts Home Assistant's request and answers in standard A2A, keeping its contextId", async () => {
    const contextId = randomUUID();
    const res = await rpc('lights', homeAssistantBody('turn on the kitchen lights', contextId), messagesKey).expect(
      200,
    );
    expect(res.body).toMatchObject({ jsonrpc: '2.0', id: 1 });
    const task = res.body.result;
    expect(task).toMatchObject({ kind: 'task', contextId, status: { state: 'completed' } });
    // Home Assistant reads result.status.message.parts[].text
    expect(task.status.message.parts).toEqual([{ kind: 'text', text: 'Done: turn on the kitchen lights' }]);
    expect(task.history[0]).toMatchObject({ role: 'user', messageId: expect.stringMatching(/^[0-9a-f-]{36}$/) });
  });

  it("continues the remote agent's own conversation when the next turn reuses the contextId", async () => {
    const contextId = randomUUID();
    const sent = () => lights.requests.filter((r) => r.method === 'POST' && r.path === '/').length;
    const before = sent();
    const first = await rpc('lights', homeAssistantBody('turn on the hall lights', contextId), messagesKey).expect(200);
    const second = await rpc('lights', homeAssistantBody('and dim them', contextId), messagesKey).expect(200);
    expect([first.body.result.contextId, second.body.result.contextId]).toEqual([contextId, contextId]);
    const remote = lights.requests
      .filter((r) => r.method === 'POST' && r.path === '/')
      .slice(before)
      .map((r) => (r.body as { params: { message: { contextId?: string } } }).params.message.contextId);
    expect(sent() - before).toBe(2);
    // The first turn opens a conversation on the remote agent; the second continues that one.
    expect(remote[0] ?? '').toBe('');
    expect(remote[1]).toMatch(/^[0-9a-f-]{36}$/);
    expect(remote[1]).not.toBe(contextId);
  });

  it('accepts parts without kind and role "assistant"', async () => {
    const body = homeAssistantBody('x', randomUUID());
    body.params.message.parts = [{ text: 'lights off' }] as never;
    const noKind = await rpc('lights', body).expect(200);
    expect(noKind.body.result.status.message.parts[0].text).toBe('Done: lights off');

    const followUp = homeAssistantBody('the bedroom too', randomUUID());
    followUp.params.message.role = 'assistant';
    const assistant = await rpc('lights', followUp).expect(200);
    expect(assistant.body.error).toBeUndefined();
    expect(assistant.body.result.history[0].role).toBe('agent');
  });

  describe.each([
    ['v0.3', {}],
    ['v1.0', { 'A2A-Version': '1.0' }],
  ])('errors (%s)', (_version, headers) => {
    const post = (body: string) =>
      t
        .http()
        .post('/api/agents/lights/v1')
        .set('X-Api-Key', TEST_ADMIN_KEY)
        .set(headers)
        .set('Content-Type', 'application/json')
        .send(body);

    it('-32700 for malformed JSON', async () => {
      const res = await post('{"jsonrpc": "2.0", "method":').expect(200);
      expect(res.body).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
    });

    it.each([
      ['[]', null],
      ['{"jsonrpc": "1.0", "id": 5, "method": "message/send"}', 5],
      ['{"jsonrpc": "2.0", "id": {}, "method": "message/send"}', null],
      ['{"jsonrpc": "2.0", "id": 6}', 6],
      ['"just a string"', null],
      ['{"jsonrpc": "2.0", "id": 7, "method": "message/send", "params": 3}', 7],
    ])('-32600 for an invalid request object %s', async (body, id) => {
      const res = await post(body).expect(200);
      expect(res.body).toMatchObject({ jsonrpc: '2.0', id, error: { code: -32600 } });
    });

    it('-32601 for an unknown method', async () => {
      const res = await post('{"jsonrpc": "2.0", "id": "u", "method": "agents/explode", "params": {}}').expect(200);
      expect(res.body).toMatchObject({ jsonrpc: '2.0', id: 'u', error: { code: -32601 } });
    });
  });

  it('-32602 for invalid params', async () => {
    const res = await rpc('lights', {
      jsonrpc: '2.0',
      id: 9,
      method: 'message/send',
      params: { message: { kind: 'message', role: 'robot', parts: [] } },
    }).expect(200);
    expect(res.body).toMatchObject({ id: 9, error: { code: -32602 } });
  });

  it.each([
    ['tasks/get', { id: 5 }, 'id must be a non-empty string'],
    ['tasks/cancel', { id: '' }, 'id must be a non-empty string'],
    ['tasks/resubscribe', { id: {} }, 'id must be a non-empty string'],
    ['tasks/pushNotificationConfig/get', { id: 3 }, 'id must be a non-empty string'],
    ['tasks/pushNotificationConfig/list', { id: {} }, 'id must be a non-empty string'],
    [
      'tasks/pushNotificationConfig/set',
      { taskId: 't', pushNotificationConfig: 'x' },
      'pushNotificationConfig must be an object',
    ],
    ['tasks/pushNotificationConfig/delete', { id: 't' }, 'pushNotificationConfigId must be a non-empty string'],
    ['tasks/get', { id: 't', historyLength: -1 }, 'historyLength must be a whole number, 0 or more'],
    ['message/send', { message: 'hi' }, 'message must be an object'],
    ['message/send', [], 'params must be an object'],
  ])('-32602, not an internal error, for %s with %j', async (method, params, problem) => {
    const res = await rpc('lights', { jsonrpc: '2.0', id: 'p', method, params }).expect(200);
    expect(res.body).toEqual({
      jsonrpc: '2.0',
      id: 'p',
      error: { code: -32602, message: `Invalid params: ${problem}` },
    });
  });

  it('-32602 for wrong types in v1.0 methods too', async () => {
    const res = await t
      .http()
      .post('/api/agents/lights/v1')
      .set('X-Api-Key', TEST_ADMIN_KEY)
      .set('A2A-Version', '1.0')
      .send({ jsonrpc: '2.0', id: 12, method: 'GetTaskPushNotificationConfig', params: { taskId: 7, id: 'c' } })
      .expect(200);
    expect(res.body.error).toEqual({ code: -32602, message: 'Invalid params: taskId must be a non-empty string' });
  });

  it('-32001 for an unknown task, on both versions', async () => {
    const v03 = await rpc('lights', {
      jsonrpc: '2.0',
      id: 10,
      method: 'tasks/get',
      params: { id: randomUUID() },
    }).expect(200);
    expect(v03.body).toMatchObject({ id: 10, error: { code: -32001 } });
    const v1 = await t
      .http()
      .post('/api/agents/lights/v1')
      .set('X-Api-Key', TEST_ADMIN_KEY)
      .set('A2A-Version', '1.0')
      .send({ jsonrpc: '2.0', id: 11, method: 'GetTask', params: { id: randomUUID() } })
      .expect(200);
    expect(v1.body).toMatchObject({ id: 11, error: { code: -32001 } });
  });

  it('refuses a call without a key with HTTP 401 and a JSON-RPC error body', async () => {
    // The key is checked before the body is read, so the request id is not known yet: null.
    const res = await t
      .http()
      .post('/api/agents/lights/v1')
      .set('X-Request-Id', 'no-key-1')
      .send(homeAssistantBody('hi', randomUUID()))
      .expect(401);
    expect(res.body).toMatchObject({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32041, data: { code: 'UNAUTHENTICATED' } },
    });
    expect(res.headers).toMatchObject({
      'www-authenticate': 'Bearer realm="switchboard"',
      'x-request-id': 'no-key-1',
    });
    expect(res.headers['x-ratelimit-limit']).toBeUndefined();
  });

  it('serves the agent paths as express matched them, and nothing else', async () => {
    const send = (path: string) =>
      t.http().post(path).set('X-Api-Key', messagesKey).send(homeAssistantBody('turn on the lights', randomUUID()));
    for (const path of ['/api/agents/lights/v1/', '/api/agents/lights/v1?via=test', '/api/agents/l%69ghts/v1']) {
      const res = await send(path).expect(200);
      expect(res.body.result).toMatchObject({ kind: 'task', status: { state: 'completed' } });
      expect(res.headers['x-ratelimit-remaining']).toBeDefined();
    }
    // A JSON-RPC error like any other request-level one: HTTP 200, -32600.
    const malformed = await send('/api/agents/%E0%A4%A/v1').expect(200);
    expect(malformed.body).toMatchObject({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, message: 'The agent id in the path is not valid percent-encoding' },
    });
    const get = await t.http().get('/api/agents/lights/v1').set('X-Api-Key', messagesKey).expect(404);
    expect(get.body).toMatchObject({ code: 'NOT_FOUND', message: 'Cannot GET /api/agents/lights/v1' });
    await send('/api/agents/lights/v1/more').expect(404);
  });

  it('counts A2A requests under their route pattern', async () => {
    await rpc('lights', homeAssistantBody('hi', randomUUID())).expect(200);
    const metrics = await t.http().get('/metrics').set('X-Api-Key', TEST_ADMIN_KEY).expect(200);
    expect(metrics.text).toMatch(
      /switchboard_http_request_duration_seconds_count\{transport="jsonrpc",method="POST",route="\/api\/agents\/:id\/v1",status="200"\} [1-9]/,
    );
    expect(metrics.text).not.toContain('route="/api/agents/lights');
  });

  it('refuses a key without the messages scope with HTTP 403', async () => {
    const reader = (
      await t
        .http()
        .post('/api/keys')
        .set('X-Api-Key', TEST_ADMIN_KEY)
        .send({ name: 'r', scopes: ['agents:read'] })
        .expect(201)
    ).body.key;
    const res = await rpc('lights', homeAssistantBody('hi', randomUUID()), reader).expect(403);
    expect(res.body.error.data).toMatchObject({ code: 'FORBIDDEN', missing: ['messages'] });
  });

  it('answers an unknown agent with HTTP 404', async () => {
    const res = await rpc('nobody', homeAssistantBody('hi', randomUUID())).expect(404);
    expect(res.body.error).toMatchObject({ message: 'Agent not found: nobody' });
  });

  it('refuses an oversize body with HTTP 413, as a JSON-RPC error', async () => {
    const res = await rpc('lights', homeAssistantBody('x'.repeat(1_100_000), randomUUID())).expect(413);
    expect(res.body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
  });

  it('answers HTTP+JSON parse errors in that binding’s own error format', async () => {
    const v03 = await t
      .http()
      .post('/api/agents/lights/json/v1/message:send')
      .set('X-Api-Key', TEST_ADMIN_KEY)
      .set('Content-Type', 'application/json')
      .send('{nope')
      .expect(400);
    expect(v03.body).toMatchObject({ code: -32602, message: 'Malformed JSON in request body' });
    const v1 = await t
      .http()
      .post('/api/agents/lights/json/message:send')
      .set('X-Api-Key', TEST_ADMIN_KEY)
      .set('A2A-Version', '1.0')
      .set('Content-Type', 'application/json')
      .send('{nope')
      .expect(400);
    expect(v1.body.error).toMatchObject({ status: 'INVALID_ARGUMENT', message: 'Malformed JSON in request body' });
  });
});

describe('the conversation rate limit on A2A routes (e2e)', () => {
  it('counts per key and agent, with headers, and refuses with 429 and Retry-After', async () => {
    const t = await startTestApp({ RATE_LIMIT_CONVERSATION_PER_MIN: '2' });
    try {
      const send = () =>
        t
          .http()
          .post('/api/agents/orchestrator/v1')
          .set('X-Api-Key', TEST_ADMIN_KEY)
          .send(homeAssistantBody('hi', randomUUID()));
      const first = await send().expect(200);
      expect(first.headers['x-ratelimit-limit']).toBe('2');
      await send().expect(200);
      const refused = await send().expect(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(refused.body).toMatchObject({
        jsonrpc: '2.0',
        id: null,
        error: { data: { code: 'RATE_LIMITED', policy: 'conversation' } },
      });
    } finally {
      await t.close();
    }
  });
});
