import { randomUUID } from 'node:crypto';
import { TRANSPORTS } from './support/a2a-clients';
import { A2aTestClient, StreamEvent, v03TestClient, v1TestClient } from './support/a2a-adapter';
import { RemoteAgent, startLightsAgent, startMusicAgent } from './support/remote-agents';
import { startTestApp, TEST_ADMIN_KEY, TestApp } from './support/test-app';

async function collect(
  events: AsyncGenerator<StreamEvent>,
  until?: (e: StreamEvent) => boolean,
): Promise<StreamEvent[]> {
  const seen: StreamEvent[] = [];
  for await (const event of events) {
    seen.push(event);
    if (until?.(event)) break;
  }
  return seen;
}

const until = async (check: () => Promise<boolean>, timeoutMs = 10_000) => {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('condition not met in time');
};

/**
 * The official SDK clients - 1.3 (A2A v1.0) and 0.3.14 (A2A v0.3) - on all three transports,
 * against a remote agent that speaks only v0.3 JSON-RPC, reached through the hub.
 */
describe('official A2A clients through the hub (e2e)', () => {
  let t: TestApp;
  let lights: RemoteAgent;
  let music: RemoteAgent;

  beforeAll(async () => {
    t = await startTestApp({
      ALLOW_PRIVATE_NETWORK_TARGETS: 'true',
      RATE_LIMIT_REGISTRY_PER_MIN: '1000',
      RATE_LIMIT_CONVERSATION_PER_MIN: '10000',
    });
    lights = await startLightsAgent();
    music = await startMusicAgent();
    for (const [agent, id] of [
      [lights, 'lights'],
      [music, 'music'],
    ] as const) {
      await t
        .http()
        .post('/api/agents')
        .set('X-Api-Key', TEST_ADMIN_KEY)
        .send({ base_url: agent.baseUrl, id })
        .expect(201);
    }
  });
  afterAll(async () => {
    await t?.close();
    await lights?.close();
    await music?.close();
  });

  const clients: [
    string,
    (base: string, transport: (typeof TRANSPORTS)[number], key: string, agent: string) => Promise<A2aTestClient>,
  ][] = [
    ['v1.0 (SDK 1.3)', (base, transport, key) => v1TestClient(base, transport, key)],
    ['v0.3 (SDK 0.3.14)', (base, transport, key, agent) => v03TestClient(base, transport, key, agent)],
  ];

  describe.each(clients)('%s', (_label, make) => {
    describe.each(TRANSPORTS)('over %s', (transport) => {
      let client: A2aTestClient;
      beforeAll(async () => {
        client = await make(`${t.baseUrl}/api/agents/lights`, transport, TEST_ADMIN_KEY, 'lights');
      });

      it('sends a message and gets the completed task, under the hub’s ids', async () => {
        const task = await client.send('turn on the kitchen lights');
        expect(task).toMatchObject({ kind: 'task', state: 'completed', text: 'Done: turn on the kitchen lights' });
        expect(task.artifactText).toBe('Lights: turn on the kitchen lights');
        expect(task.id).toMatch(/^[0-9a-f-]{36}$/);
        const got = await client.get(task.id);
        expect(got).toMatchObject({ id: task.id, contextId: task.contextId, state: 'completed' });
        expect(got.historyTexts[0]).toBe('turn on the kitchen lights');
      });

      it('streams the task as it runs', async () => {
        const events = await collect(client.stream('dim the hall'));
        expect(events.map((e) => e.kind)).toEqual(['task', 'status', 'artifact', 'status']);
        expect(events.filter((e) => e.kind === 'status').map((e) => e.state)).toEqual(['working', 'completed']);
      });

      it('cancels a running task on the remote agent, and a resubscriber sees it end', async () => {
        const stream = client.stream('slow: fade everything out');
        const started = await collect(stream, (e) => e.kind === 'status' && e.state === 'working');
        const taskId = started.find((e) => e.taskId)!.taskId!;
        const watcher = collect(client.resubscribe(taskId), (e) => e.state === 'canceled');
        await new Promise((resolve) => setTimeout(resolve, 200));
        const cancelled = await client.cancel(taskId);
        expect(cancelled.state).toBe('canceled');
        expect((await watcher).at(-1)).toMatchObject({ state: 'canceled' });
        await until(async () => (await client.get(taskId)).state === 'canceled');
        await stream.return(undefined);
      });

      it('stores, reads, lists and deletes push notification configs', async () => {
        const task = await client.send('porch light on');
        const created = await client.setPush(task.id, 'http://127.0.0.1:9/webhook', 'token-1');
        expect(created.id).not.toBe('');
        expect(await client.getPush(task.id, created.id)).toEqual({
          id: created.id,
          url: 'http://127.0.0.1:9/webhook',
        });
        expect(await client.listPush(task.id)).toEqual([{ id: created.id, url: 'http://127.0.0.1:9/webhook' }]);
        await client.deletePush(task.id, created.id);
        expect(await client.listPush(task.id)).toEqual([]);
      });

      it('reports an unknown task as task-not-found', async () => {
        await expect(client.get(randomUUID())).rejects.toThrow(/Task not found/);
      });

      it('reports cancelling a finished task as not cancelable', async () => {
        const task = await client.send('garden lights on');
        await expect(client.cancel(task.id)).rejects.toThrow(/Task (not cancelable|cannot be canceled)/);
      });

      it('relays an agent that answers with a message (SDK 1.3 remote)', async () => {
        const musicClient = await make(`${t.baseUrl}/api/agents/music`, transport, TEST_ADMIN_KEY, 'music');
        const reply = await musicClient.send('jazz in the kitchen');
        expect(reply).toMatchObject({ kind: 'message', text: 'Playing: jazz in the kitchen' });
      });

      it('is refused without an API key', async () => {
        const anonymous = await make(`${t.baseUrl}/api/agents/lights`, transport, '', 'lights');
        await expect(anonymous.send('let me in')).rejects.toThrow(/An API key is required|401 Unauthorized/);
      });
    });
  });

  it("keeps one owner's tasks from another owner", async () => {
    const keyFor = async (owner: string) =>
      (
        await t
          .http()
          .post('/api/keys')
          .set('X-Api-Key', TEST_ADMIN_KEY)
          .send({ name: owner, owner, scopes: ['messages'] })
          .expect(201)
      ).body.key as string;
    const alice = await v1TestClient(`${t.baseUrl}/api/agents/lights`, 'JSONRPC', await keyFor('alice'));
    const bob = await v1TestClient(`${t.baseUrl}/api/agents/lights`, 'JSONRPC', await keyFor('bob'));
    const task = await alice.send('alice’s lights');
    await expect(bob.get(task.id)).rejects.toThrow(/Task not found/);
    await expect(bob.cancel(task.id)).rejects.toThrow(/Task not found/);
    expect((await alice.get(task.id)).state).toBe('completed');
  });

  it('reaches non-default agents over v1.0 gRPC by tenant, and the default agent without one', async () => {
    const orchestrator = await v1TestClient(`${t.baseUrl}/api/agents/orchestrator`, 'GRPC', TEST_ADMIN_KEY);
    expect((await orchestrator.send('turn on the lights')).text).toBe('Done: turn on the lights');
    const v03Default = await v03TestClient(`${t.baseUrl}/api/agents/orchestrator`, 'GRPC', TEST_ADMIN_KEY, '');
    expect((await v03Default.send('lights off')).text).toBe('Done: lights off');
  });
});
