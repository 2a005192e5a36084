import { DefaultRequestHandler } from '@a2a-js/sdk/server';
import express from 'express';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { AGENT_ID_STATE_KEY } from '../src/a2a/hosting/call-context';
import { RoutingLog } from '../src/orchestration/routing-log/routing-log';
import { KeyValueStore } from '../src/platform/kv/key-value-store';
import { RemoteAgent, startLightsAgent, startMusicAgent, startThermostatAgent } from './support/remote-agents';
import { freePort, registerAgent, startTestApp, TEST_ADMIN_KEY, TestApp, homeAssistantBody } from './support/test-app';

/** What Home Assistant reads from a JSON-RPC reply: status.message parts when there is a status, else parts. */
function spokenText(result: {
  status?: { message?: { parts: { kind: string; text?: string }[] } };
  parts?: { kind: string; text?: string }[];
}): string {
  const parts = result.status ? (result.status.message?.parts ?? []) : (result.parts ?? []);
  return parts
    .filter((p) => p.kind === 'text')
    .map((p) => p.text)
    .join('');
}

/** A fake OpenAI-compatible endpoint answering from a queue of replies (a string body or a status). */
async function startFakeLlm() {
  const calls: { body: { model: string; messages: { role: string; content: string }[] } }[] = [];
  const replies: ({ content: string } | { status: number })[] = [];
  const app = express();
  app.use(express.json());
  app.post('/v1/chat/completions', (req, res) => {
    calls.push({ body: req.body });
    const next = replies.shift() ?? { status: 500 };
    if ('status' in next) return void res.status(next.status).json({ error: 'down' });
    res.json({ choices: [{ index: 0, message: { role: 'assistant', content: next.content } }] });
  });
  const server = await new Promise<ReturnType<typeof app.listen>>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    calls,
    replies,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The routing log of a conversation, newest first, once it has `count` entries (it is written after the answer). */
async function decisions(app: TestApp, contextId: string, count: number) {
  for (let i = 0; ; i++) {
    const log = await app.app.get(RoutingLog).recent('admin', contextId);
    if (log.length >= count || i >= 50) return log;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('orchestrator (e2e)', () => {
  let t: TestApp;
  let lights: RemoteAgent;
  let music: RemoteAgent;
  let thermostat: RemoteAgent;
  const send = (text: string, contextId: string, path = '/api/agents/orchestrator/v1') =>
    t.http().post(path).set('X-Api-Key', TEST_ADMIN_KEY).send(homeAssistantBody(text, contextId)).expect(200);

  beforeAll(async () => {
    [lights, music, thermostat] = await Promise.all([startLightsAgent(), startMusicAgent(), startThermostatAgent()]);
    t = await startTestApp({
      AGENT_TIMEOUT_MS: '1500',
      RATE_LIMIT_CONVERSATION_PER_MIN: '1000',
      ALLOW_PRIVATE_NETWORK_TARGETS: 'true',
    });
    await registerAgent(t, lights.baseUrl, 'lights');
    await registerAgent(t, music.baseUrl, 'music');
    await registerAgent(t, thermostat.baseUrl, 'thermostat');
  });
  afterAll(async () => {
    await t?.close();
    await Promise.all([lights?.close(), music?.close(), thermostat?.close()]);
  });

  it('routes a single-intent request to one agent and answers as a message with its metadata', async () => {
    const contextId = randomUUID();
    const res = await send('turn on the kitchen lights', contextId);
    expect(res.body.result).toMatchObject({
      kind: 'message',
      role: 'agent',
      contextId,
      metadata: { agents_used: ['lights'], task_state: 'fresh', execution_time_ms: expect.any(Number) },
    });
    expect(res.body.result.parts[0]).toMatchObject({ kind: 'text', text: 'Done: turn on the kitchen lights' });
  });

  it('starts a conversation the caller did not name without reading the store, and continues it once named', async () => {
    const kv = t.app.get(KeyValueStore);
    const reads = jest.spyOn(kv, 'get');
    const contextReads = () => reads.mock.calls.filter(([key]) => key.startsWith('orchestration:ctx:')).length;
    try {
      const first = await send('turn on the kitchen lights', null as unknown as string);
      const contextId: string = first.body.result.contextId;
      expect(contextId).toEqual(expect.any(String));
      expect(first.body.result.metadata.task_state).toBe('fresh');
      expect(contextReads()).toBe(0);
      const second = await send('turn off the kitchen lights', contextId);
      expect(second.body.result.metadata).toMatchObject({ agents_used: ['lights'], task_state: 'resumed' });
      expect(contextReads()).toBe(1);
    } finally {
      reads.mockRestore();
    }
  });

  it('splits a multi-intent request, runs the agents in parallel and answers in request order', async () => {
    const res = await send('Turn on the kitchen lights and play jazz music', randomUUID());
    expect(res.body.result.metadata.agents_used).toEqual(['lights', 'music']);
    expect(spokenText(res.body.result)).toBe('Done: Turn on the kitchen lights\nPlaying: play jazz music');
  });

  it('runs the clauses it can place and asks about the one it cannot, in the same answer', async () => {
    const contextId = randomUUID();
    const before = lights.requests.length;
    const first = await send('turn on the kitchen lights and fetch my slippers', contextId);
    expect(first.body.result).toMatchObject({
      kind: 'task',
      status: { state: 'input-required' },
      metadata: { agents_used: ['lights'] },
    });
    expect(spokenText(first.body.result)).toBe(
      'Done: turn on the kitchen lights\nI\'m not sure who should handle "fetch my slippers". Could you say it another way?',
    );
    // The lights agent got its own clause only.
    expect(JSON.stringify(lights.requests.slice(before))).not.toContain('slippers');
    // Naming an agent sends it the clause that was asked about.
    const second = await send('music', contextId);
    expect(second.body.result.metadata.agents_used).toEqual(['music']);
    expect(spokenText(second.body.result)).toBe('Playing: fetch my slippers');
  });

  it('routes on the user words, not on the Home Assistant prompt before them', async () => {
    const prompt =
      'You are a voice assistant for Home Assistant. Devices: kitchen lights (light), living room lights ' +
      '(light), hallway thermostat (climate). Answer briefly.\n\nUser: play some jazz music';
    const res = await send(prompt, randomUUID());
    expect(res.body.result.metadata.agents_used).toEqual(['music']);
    // The agent gets the whole message, prompt included.
    expect(spokenText(res.body.result)).toBe(`Playing: ${prompt}`);
  });

  it('asks which agent is meant when unsure, naming those that matched, then routes the original request to the one named', async () => {
    const contextId = randomUUID();
    const first = await send('something for the kitchen room', contextId);
    expect(first.body.result).toMatchObject({ kind: 'task', status: { state: 'input-required' } });
    const question = spokenText(first.body.result);
    // Best first: "room" is on the music card twice, "kitchen" once on the lights card.
    expect(question).toBe("I'm not sure who should handle that. Did you mean Music or Lights?");
    expect(first.body.result.metadata.agents_used).toEqual([]);

    // Home Assistant answers in the same context, without the task id.
    const second = await send('the music one', contextId);
    expect(second.body.result).toMatchObject({
      kind: 'message',
      metadata: { agents_used: ['music'], task_state: 'completed' },
    });
    expect(spokenText(second.body.result)).toBe('Playing: something for the kitchen room');

    const log = await decisions(t, contextId, 2);
    expect(log.map((d) => d.outcome)).toEqual(['answered', 'clarification']);
    expect(log[1]).toMatchObject({ agents: ['music', 'lights'], router: 'default' });
    expect(log[1].confidence).toBeLessThan(0.7);
    expect(log[0]).toMatchObject({ agents: ['music'], router: 'clarification', requestText: 'the music one' });
  });

  it('names no agent when nothing matched; an answer may name any agent, typos and all, or start anew', async () => {
    const contextId = randomUUID();
    const first = await send('do something nice', contextId);
    expect(spokenText(first.body.result)).toBe("I'm not sure who should handle that. Could you say it another way?");
    // An agent the question did not offer, misspelt: it gets the original request.
    const before = thermostat.requests.length;
    const second = await send('thermostatt please', contextId);
    expect(second.body.result.metadata.agents_used).toEqual(['thermostat']);
    expect(JSON.stringify(thermostat.requests.slice(before))).toContain('do something nice');
    expect(JSON.stringify(thermostat.requests.slice(before))).not.toContain('thermostatt');

    const other = randomUUID();
    await send('something for the kitchen room', other);
    // Not a pick but a request of its own: routed as one.
    const next = await send('play jazz in the living room', other);
    expect(next.body.result.metadata.agents_used).toEqual(['music']);
    expect(spokenText(next.body.result)).toBe('Playing: play jazz in the living room');
  });

  it('learns a request settled by naming an agent: the same phrasing goes there directly, until the route is removed', async () => {
    const admin = { 'X-Api-Key': TEST_ADMIN_KEY };
    const first = randomUUID();
    expect(spokenText((await send('brew me something warm', first)).body.result)).toContain('Could you say it');
    expect((await send('Music', first)).body.result.metadata.agents_used).toEqual(['music']);
    let items: { id: string; example: string; agent_id: string; owner: string }[] = [];
    for (let i = 0; i < 50 && !items.some((r) => r.example === 'brew me something warm'); i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      items = (await t.http().get('/internal/orchestration/learned-routes').set(admin).expect(200)).body.items;
    }
    const route = items.find((r) => r.example === 'brew me something warm')!;
    expect(route).toMatchObject({ agent_id: 'music', owner: expect.any(String) });

    // Another conversation, the same words in another order and case: straight to the agent.
    const second = randomUUID();
    const direct = await send('Something warm, brew me!', second);
    expect(direct.body.result).toMatchObject({ kind: 'message', metadata: { agents_used: ['music'] } });
    expect((await decisions(t, second, 1))[0]).toMatchObject({ router: 'learned', agents: ['music'] });

    await t.http().delete(`/internal/orchestration/learned-routes/${route.id}`).set(admin).expect(204);
    await t.http().delete(`/internal/orchestration/learned-routes/${route.id}`).set(admin).expect(404);
    await t.http().delete('/internal/orchestration/learned-routes/not-a-uuid').set(admin).expect(400);
    const third = await send('brew me something warm', randomUUID());
    expect(third.body.result).toMatchObject({ kind: 'task', status: { state: 'input-required' } });
  });

  it('sends a follow-up it cannot place to the conversation’s previous agent', async () => {
    const contextId = randomUUID();
    await send('play jazz music', contextId);
    const res = await send('turn it off', contextId);
    expect(res.body.result.metadata).toMatchObject({ agents_used: ['music'], task_state: 'resumed' });
    expect(spokenText(res.body.result)).toBe('Playing: turn it off');
  });

  it('passes an agent’s question on as input-required and continues the agent’s task with the answer', async () => {
    const contextId = randomUUID();
    const asked = await send('set the thermostat', contextId);
    expect(asked.body.result).toMatchObject({
      kind: 'task',
      status: { state: 'input-required' },
      metadata: { agents_used: ['thermostat'] },
    });
    expect(spokenText(asked.body.result)).toBe('What temperature would you like?');

    const answered = await send('21 degrees please', contextId);
    expect(answered.body.result.metadata).toMatchObject({ agents_used: ['thermostat'], task_state: 'completed' });
    expect(spokenText(answered.body.result)).toBe('Thermostat set to 21 degrees');
    // The hub continued the thermostat's own task rather than starting another.
    const thermostatTasks = thermostat.requests
      .map((r) => (r.body as { params?: { message?: { taskId?: string } } } | undefined)?.params?.message?.taskId)
      .filter(Boolean);
    expect(thermostatTasks).toHaveLength(1);
  });

  it('streams the answer to its own question when the client names the task, the task first', async () => {
    const contextId = randomUUID();
    const asked = await send('set the thermostat', contextId);
    const taskId: string = asked.body.result.id;
    expect(asked.body.result.status.state).toBe('input-required');
    const body = homeAssistantBody('21 degrees please', contextId);
    const streamed = await t
      .http()
      .post('/api/agents/orchestrator/v1')
      .set('X-Api-Key', TEST_ADMIN_KEY)
      .send({ ...body, method: 'message/stream', params: { message: { ...body.params.message, taskId } } })
      .expect(200);
    const events = streamed.text
      .split('\n\n')
      .filter((chunk) => chunk.startsWith('data:'))
      .map((chunk) => JSON.parse(chunk.slice('data:'.length)) as { result?: Record<string, unknown>; error?: unknown });
    expect(events.every((e) => e.error === undefined)).toBe(true);
    expect(events[0].result).toMatchObject({ kind: 'task', id: taskId, contextId });
    expect(events[events.length - 1].result).toMatchObject({
      kind: 'status-update',
      taskId,
      final: true,
      status: { state: 'completed' },
      metadata: { agents_used: ['thermostat'], task_state: 'completed' },
    });
  });

  it('answers a blocking turn that starts a task beside the SDK’s handler; its question is stored, and the turn naming it goes through the SDK', async () => {
    const sdkSend = jest.spyOn(DefaultRequestHandler.prototype, 'sendMessage');
    // The test's remote agents are SDK servers in this process too: only the hub's own handlers count.
    const hubSdkSends = () =>
      sdkSend.mock.calls.filter(([, ctx]) => ctx.state.get(AGENT_ID_STATE_KEY) === 'orchestrator');
    const rpc = (body: object) =>
      t.http().post('/api/agents/orchestrator/v1').set('X-Api-Key', TEST_ADMIN_KEY).send(body).expect(200);
    try {
      const contextId = randomUUID();
      const asked = await send('set the thermostat', contextId);
      expect(hubSdkSends()).toHaveLength(0);
      const taskId: string = asked.body.result.id;
      const stored = await rpc({ jsonrpc: '2.0', id: 2, method: 'tasks/get', params: { id: taskId } });
      expect(stored.body.result).toMatchObject({ id: taskId, contextId, status: { state: 'input-required' } });
      expect(JSON.stringify(stored.body.result.history[0])).toContain('set the thermostat');

      const body = homeAssistantBody('21 degrees please', contextId);
      const answered = await rpc({ ...body, params: { message: { ...body.params.message, taskId } } });
      expect(hubSdkSends()).toHaveLength(1);
      expect(answered.body.result).toMatchObject({ kind: 'task', id: taskId, status: { state: 'completed' } });
      expect(spokenText(answered.body.result)).toBe('Thermostat set to 21 degrees');
    } finally {
      sdkSend.mockRestore();
    }
  });

  it('answers AGENT_TIMEOUT with the other agents’ answers when one misses its deadline, and cancels it', async () => {
    const res = await send('turn on the lights slow and play jazz music', randomUUID());
    expect(res.body.error).toMatchObject({
      code: -32062,
      data: {
        errorCode: 'AGENT_TIMEOUT',
        userMessage: 'Playing: play jazz music Lights did not answer in time.',
        suggestedAction: expect.any(String),
      },
    });
    expect(res.body.error.message).toBe(res.body.error.data.userMessage);
    const cancelled = () =>
      lights.requests.some((r) => (r.body as { method?: string } | undefined)?.method === 'tasks/cancel');
    for (let i = 0; i < 50 && !cancelled(); i++) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(cancelled()).toBe(true);
  });

  it('serves the same orchestrator at POST /a2a/lucia-orchestrator', async () => {
    const res = await send('turn off the lights', randomUUID(), '/a2a/lucia-orchestrator');
    expect(res.body).toMatchObject({ jsonrpc: '2.0', id: 1, result: { kind: 'message' } });
    expect(spokenText(res.body.result)).toBe('Done: turn off the lights');
    await t.http().post('/a2a/lucia-orchestrator').send(homeAssistantBody('x', randomUUID())).expect(401);
  });

  describe('the JSON-RPC generation of the Home Assistant integration', () => {
    it('finds the orchestrator through GET /agents and holds a conversation, question included', async () => {
      await t.http().get('/agents').set('X-Api-Key', 'wrong-key-wrong-key-wrong-key').expect(401);
      const cards = (await t.http().get('/agents').set('X-Api-Key', TEST_ADMIN_KEY).expect(200)).body as {
        name: string;
        url: string;
      }[];
      const card = cards.find((c) => c.name.toLowerCase() === 'orchestrator') ?? cards[0];
      const url = new URL(card.url, t.baseUrl);
      const post = (text: string, contextId: string) =>
        t
          .http()
          .post(url.pathname)
          .set('X-Api-Key', TEST_ADMIN_KEY)
          .send(homeAssistantBody(text, contextId))
          .expect(200);

      const conversation = randomUUID();
      const first = await post('turn on the kitchen lights', conversation);
      expect(spokenText(first.body.result)).toBe('Done: turn on the kitchen lights');
      const asked = await post('now set the thermostat', first.body.result.contextId);
      expect(spokenText(asked.body.result)).toBe('What temperature would you like?');
      const done = await post('19', asked.body.result.contextId);
      expect(spokenText(done.body.result)).toBe('Thermostat set to 19 degrees');
    });
  });

  describe('the REST generation of the Home Assistant integration', () => {
    it('probes the key with OPTIONS', async () => {
      await t.http().options('/api/conversation').set('X-Api-Key', 'wrong-key-wrong-key-wrong-key').expect(401);
      await t.http().options('/api/conversation').expect(401);
      await t.http().options('/api/conversation').set('Authorization', `Bearer ${TEST_ADMIN_KEY}`).expect(204);
    });

    it('starts a conversation with conversationId null, continues it, and asks with needsInput', async () => {
      const context = (conversationId: string | null) => ({
        timestamp: '2026-11-22T18:04:05.123Z',
        conversationId,
        deviceId: 'abc123',
        deviceArea: 'Kitchen',
        deviceType: 'satellite',
        userId: 'user-1',
        location: 'Home',
      });
      const post = (text: string, conversationId: string | null) =>
        t
          .http()
          .post('/api/conversation')
          .set('Authorization', `Bearer ${TEST_ADMIN_KEY}`)
          .send({ text, context: context(conversationId), promptOverride: null })
          .expect(200);

      const first = await post('set the thermostat', null);
      expect(first.body).toEqual({
        text: 'What temperature would you like?',
        type: 'question',
        conversationId: expect.stringMatching(/^[0-9a-f]{32}$/),
        needsInput: true,
      });
      const second = await post('22', first.body.conversationId);
      expect(second.body).toEqual({
        text: 'Thermostat set to 22 degrees',
        type: 'response',
        conversationId: first.body.conversationId,
        needsInput: false,
      });
    });

    it('streams metadata, delta and done events, with the type inside the data too', async () => {
      const conversationId = randomUUID().replace(/-/g, '');
      const res = await t
        .http()
        .post('/api/conversation')
        .set('X-Api-Key', TEST_ADMIN_KEY)
        .set('Accept', 'text/event-stream')
        .send({ text: 'play jazz music', context: { conversationId }, promptOverride: null })
        .buffer(true)
        .parse((response, done) => {
          let body = '';
          response.on('data', (chunk: Buffer) => (body += chunk.toString()));
          response.on('end', () => done(null, body));
        })
        .expect(200);
      expect(res.headers['content-type']).toMatch(/^text\/event-stream/);
      const events = (res.body as string)
        .trim()
        .split('\n\n')
        .map((block) => {
          const event = /^event: (.+)$/m.exec(block)![1];
          return { event, data: JSON.parse(/^data: (.+)$/m.exec(block)![1]) as Record<string, unknown> };
        });
      expect(events).toEqual([
        { event: 'metadata', data: { type: 'metadata', conversationId } },
        { event: 'delta', data: { type: 'delta', text: 'Playing: play jazz music' } },
        { event: 'done', data: { type: 'done', text: 'Playing: play jazz music', conversationId, needsInput: false } },
      ]);
    });

    it('refuses a body without text with a clear 400', async () => {
      const res = await t
        .http()
        .post('/api/conversation')
        .set('X-Api-Key', TEST_ADMIN_KEY)
        .send({ context: { conversationId: null } })
        .expect(400);
      expect(res.body).toMatchObject({ code: 'VALIDATION_FAILED' });
      expect(JSON.stringify(res.body)).toMatch(/text/);
    });
  });
});

describe('orchestrator with an LLM router (e2e)', () => {
  let llm: Awaited<ReturnType<typeof startFakeLlm>>;
  let lights: RemoteAgent;
  let music: RemoteAgent;
  const apps: TestApp[] = [];
  const start = async (env: Record<string, string>) => {
    const app = await startTestApp({
      ROUTER_MODEL: 'test-model',
      ROUTER_API_KEY: 'sk-test-secret',
      ALLOW_PRIVATE_NETWORK_TARGETS: 'true',
      ...env,
    });
    apps.push(app);
    await registerAgent(app, lights.baseUrl, 'lights');
    await registerAgent(app, music.baseUrl, 'music');
    return app;
  };
  const send = (app: TestApp, text: string, contextId = randomUUID()) =>
    app
      .http()
      .post('/api/agents/orchestrator/v1')
      .set('X-Api-Key', TEST_ADMIN_KEY)
      .send(homeAssistantBody(text, contextId))
      .expect(200);

  beforeAll(async () => {
    [llm, lights, music] = await Promise.all([startFakeLlm(), startLightsAgent(), startMusicAgent()]);
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    await Promise.all([llm?.close(), lights?.close(), music?.close()]);
  });

  it('routes as the model says, retries once after invalid JSON, and falls back when it is down', async () => {
    const app = await start({ ROUTER_BASE_URL: llm.baseUrl });
    // The model's choice wins even where the built-in router would choose otherwise.
    llm.replies.push({ content: JSON.stringify({ agentId: 'music', reasoning: 'music fits', confidence: 0.9 }) });
    const chosen = await send(app, 'turn on the lights');
    expect(chosen.body.result.metadata.agents_used).toEqual(['music']);
    expect(llm.calls[0].body.model).toBe('test-model');
    expect(llm.calls[0].body.messages[0].content).toContain('"id":"lights"');

    llm.replies.push({ content: 'not json at all' });
    llm.replies.push({ content: JSON.stringify({ agentId: 'nobody', reasoning: '', confidence: 1 }) });
    const contextId = randomUUID();
    const retried = await send(app, 'play jazz music', contextId);
    expect(llm.calls).toHaveLength(3);
    expect(llm.calls[2].body.messages.at(-1)?.content).toMatch(/unusable \(not JSON\)/);
    // Both answers unusable: ROUTER_FALLBACK=default routes with the built-in router.
    expect(retried.body.result.metadata.agents_used).toEqual(['music']);
    const log = await decisions(app, contextId, 1);
    expect(log[0]).toMatchObject({ router: 'llm-fallback', agents: ['music'] });

    llm.replies.push(
      { status: 503 },
      { content: JSON.stringify({ agentId: 'lights', reasoning: 'ok', confidence: 0.95 }) },
    );
    const second = await send(app, 'turn on the lights');
    expect(second.body.result.metadata.agents_used).toEqual(['lights']);
  });

  it('answers ROUTER_FAILURE when the model fails twice and ROUTER_FALLBACK=error', async () => {
    const app = await start({ ROUTER_BASE_URL: `http://127.0.0.1:${await freePort()}/v1`, ROUTER_FALLBACK: 'error' });
    const res = await send(app, 'turn on the lights');
    expect(res.body.error).toMatchObject({
      code: -32061,
      data: { errorCode: 'ROUTER_FAILURE', userMessage: expect.stringMatching(/try again/i) },
    });
    expect(JSON.stringify(res.body)).not.toContain('sk-test-secret');

    // v1.0 carries the same failure as an ErrorInfo, on JSON-RPC and on HTTP+JSON (502).
    const message = (text: string) => ({
      messageId: randomUUID(),
      role: 'ROLE_USER',
      parts: [{ text }],
    });
    const errorInfo = {
      '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
      reason: 'ROUTER_FAILURE',
      metadata: { errorCode: 'ROUTER_FAILURE', userMessage: expect.stringMatching(/try again/i) },
    };
    const v1 = await app
      .http()
      .post('/api/agents/orchestrator/v1')
      .set('X-Api-Key', TEST_ADMIN_KEY)
      .set('A2A-Version', '1.0')
      .send({ jsonrpc: '2.0', id: 2, method: 'SendMessage', params: { message: message('turn on the lights') } })
      .expect(200);
    expect(v1.body.error).toMatchObject({ code: -32061, data: [errorInfo] });
    const rest = await app
      .http()
      .post('/api/agents/orchestrator/json/message:send')
      .set('X-Api-Key', TEST_ADMIN_KEY)
      .set('A2A-Version', '1.0')
      .send({ message: message('turn on the lights') })
      .expect(502);
    expect(rest.body.error).toMatchObject({ code: 502, details: [errorInfo] });
  });
});
