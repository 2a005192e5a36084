import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  LoggingMessageNotificationSchema,
  ResourceUpdatedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { join } from 'node:path';
import { RemoteAgent, startLightsAgent, startNotesAgent } from './support/remote-agents';
import { createApiKey, freePort, startTestApp, TEST_ADMIN_KEY, TestApp } from './support/test-app';
import { startWebhookReceiver, WebhookDelivery } from './support/webhook-receiver';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const TOOLS = [
  'resolve_agent_card',
  'validate_agent_card',
  'list_remote_agents',
  'send_message',
  'send_streaming_message',
  'get_task',
  'list_tasks',
  'cancel_task',
  'subscribe_to_task',
  'configure_push_notifications',
  'delete_push_notifications',
  'get_extended_agent_card',
];

describe('MCP face: the A2A client tools (e2e)', () => {
  let t: TestApp;
  let lights: RemoteAgent;
  let notes: RemoteAgent;
  let messagesKey: string;

  beforeAll(async () => {
    [lights, notes] = await Promise.all([startLightsAgent(), startNotesAgent()]);
    t = await startTestApp({ ALLOW_PRIVATE_NETWORK_TARGETS: 'true', MCP_REQUEST_TIMEOUT_MS: '2000' });
    messagesKey = await createApiKey(t, ['messages'], { name: 'assistant', owner: 'admin' });
  });

  afterAll(async () => {
    await t?.close();
    await Promise.all([lights?.close(), notes?.close()]);
  });

  const transports: Record<string, (key: string) => Transport> = {
    'Streamable HTTP': (key) =>
      new StreamableHTTPClientTransport(new URL('/mcp', t.baseUrl), { requestInit: { headers: { 'X-Api-Key': key } } }),
    // npm run mcp: the stdio relay, run from its source.
    stdio: (key) =>
      new StdioClientTransport({
        command: process.execPath,
        args: ['-r', 'ts-node/register/transpile-only', join(__dirname, '..', 'src', 'cli', 'mcp.ts')],
        env: { ...(process.env as Record<string, string>), SWITCHBOARD_URL: t.baseUrl, SWITCHBOARD_API_KEY: key },
        stderr: 'pipe',
      }),
  };

  describe.each(Object.keys(transports))('over %s', (name) => {
    let client: Client;
    const updates: Json[] = [];
    const resourceUpdates: string[] = [];

    beforeAll(async () => {
      client = new Client({ name: 'switchboard-test', version: '1.0.0' });
      client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void updates.push(n.params.data as Json));
      client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void resourceUpdates.push(n.params.uri));
      await client.connect(transports[name](TEST_ADMIN_KEY));
    }, 60_000);

    afterAll(async () => client?.close());

    /** A tool's JSON answer; fails the test on a tool error. */
    async function call(tool: string, args: Json = {}): Promise<Json> {
      const result = (await client.callTool({ name: tool, arguments: args })) as Json;
      const text = (result.content as { type: string; text: string }[])[0].text;
      if (result.isError) throw new Error(`${tool} failed: ${text}`);
      return JSON.parse(text);
    }

    /** A tool error's text. */
    async function refused(tool: string, args: Json = {}): Promise<string> {
      const result = (await client.callTool({ name: tool, arguments: args })) as Json;
      expect(result.isError).toBe(true);
      return (result.content as { text: string }[])[0].text;
    }

    it('lists every tool with a declared input schema', async () => {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual([...TOOLS].sort());
      const send = tools.find((tool) => tool.name === 'send_message')!;
      expect(send.inputSchema).toMatchObject({ type: 'object', required: ['agent_id', 'text'] });
    });

    it('resolves, validates and lists agents', async () => {
      const record = await call('resolve_agent_card', { base_url: lights.baseUrl });
      expect(record).toEqual({
        agent_id: 'lights',
        name: 'Lights',
        base_url: lights.baseUrl,
        status: 'connected',
        card: expect.objectContaining({ name: 'Lights' }),
        auth_mode: 'none',
        last_seen_at: expect.any(String),
        created_at: expect.any(String),
      });
      await call('resolve_agent_card', { base_url: notes.baseUrl });
      const report = await call('validate_agent_card', { base_url: notes.baseUrl });
      expect(report).toMatchObject({ name: 'Notes', card_url: `${notes.baseUrl}/.well-known/agent-card.json` });
      const listed = (await call('list_remote_agents')) as Json[];
      expect(listed).toEqual(
        expect.arrayContaining([
          { agent_id: 'lights', name: 'Lights', base_url: lights.baseUrl, status: 'connected' },
          { agent_id: 'notes', name: 'Notes', base_url: notes.baseUrl, status: 'connected' },
        ]),
      );
    });

    it('says why a card cannot be resolved', async () => {
      const dead = `http://127.0.0.1:${await freePort()}`;
      expect(await refused('resolve_agent_card', { base_url: dead })).toBe(
        'Failed to resolve agent card: connection refused',
      );
      expect(await refused('resolve_agent_card', { base_url: `${notes.baseUrl}/elsewhere` })).toBe(
        `No agent card found at ${notes.baseUrl}/elsewhere`,
      );
    });

    it('sends messages and reads the answer from artifacts or history', async () => {
      const lit = await call('send_message', { agent_id: 'lights', text: 'turn on the porch lights' });
      expect(lit).toMatchObject({
        kind: 'task',
        status: { state: 'completed' },
        text: 'Lights: turn on the porch lights',
      });
      const noted = await call('send_message', { agent_id: 'notes', text: 'buy milk' });
      expect(noted).toMatchObject({ kind: 'task', status: { state: 'completed' }, text: 'Noted: buy milk' });
      const read = await call('get_task', { task_id: noted.task_id });
      expect(read).toMatchObject({ task_id: noted.task_id, status: { state: 'completed' }, text: 'Noted: buy milk' });
      const listed = (await call('list_tasks', { limit: 2 })) as Json[];
      expect(listed.map((task) => task.task_id)).toEqual([noted.task_id, lit.task_id]);
      expect(listed[0]).toMatchObject({ agent_id: 'notes', state: 'completed' });
    });

    it('fails clearly: unknown agent, unknown task, timeout', async () => {
      expect(await refused('send_message', { agent_id: 'nope', text: 'hi' })).toBe('Agent not found: nope');
      expect(await refused('get_task', { task_id: 'no-such-task' })).toBe('Task not found: no-such-task');
      expect(await refused('send_message', { agent_id: 'lights', text: 'slow fade' })).toBe('Request failed: timeout');
      expect(await refused('send_message', { agent_id: 'lights' })).toMatch(/text/);
    });

    it('streams, subscribes and cancels for real', async () => {
      const started = await call('send_streaming_message', { agent_id: 'lights', text: 'slow sunrise' });
      expect(started).toMatchObject({ task_id: expect.any(String), status: { state: 'working' }, streaming: true });
      const taskId = started.task_id as string;
      expect(await call('get_task', { task_id: taskId })).toMatchObject({ status: { state: 'working' } });
      const subscribed = await call('subscribe_to_task', { task_id: taskId });
      expect(subscribed).toMatchObject({ task_id: taskId, subscription: 'active', current_state: 'working' });
      expect(await call('cancel_task', { task_id: taskId })).toEqual({ task_id: taskId, status: 'canceled' });
      // The cancel reached the remote agent, and the subscription saw the task end.
      expect(lights.requests.some((r) => (r.body as Json)?.method === 'tasks/cancel')).toBe(true);
      for (let i = 0; i < 100 && !updates.some((u) => u.task_id === taskId && u.done); i++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(updates.find((u) => u.task_id === taskId && u.done)).toMatchObject({ status: { state: 'canceled' } });
      expect(resourceUpdates).toContain(`switchboard://tasks/${taskId}`);
      expect(await call('get_task', { task_id: taskId })).toMatchObject({ status: { state: 'canceled' } });
    });

    it('posts task updates to a configured webhook, filtered by event, until it is deleted', async () => {
      const hook = await startWebhookReceiver();
      const configIds: string[] = [];
      try {
        const both = await call('configure_push_notifications', { agent_id: 'notes', webhook_url: hook.url });
        configIds.push(both.config_id as string);
        expect(both).toEqual({
          config_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
          agent_id: 'notes',
          webhook_url: hook.url,
          events: ['status_update', 'artifact_update'],
          active: true,
        });
        const noted = await call('send_message', { agent_id: 'notes', text: 'call the plumber' });
        const forNoted = await deliveriesOf(hook.received, noted.task_id as string, (d) => isFinalDelivery(d));
        expect(forNoted.at(-1)!.body).toMatchObject({
          task: { id: noted.task_id, status: { state: 'TASK_STATE_COMPLETED' } },
        });

        // Artifacts only: Lights answers with an artifact; no status-only update reaches this webhook.
        const artifacts = await call('configure_push_notifications', {
          agent_id: 'lights',
          webhook_url: hook.url,
          events: ['artifact_update'],
        });
        configIds.push(artifacts.config_id as string);
        expect(artifacts).toMatchObject({ agent_id: 'lights', events: ['artifact_update'], active: true });
        const lit = await call('send_message', { agent_id: 'lights', text: 'turn on the hall lights' });
        const forLit = await deliveriesOf(hook.received, lit.task_id as string, (d) => hasArtifact(d));
        expect(forLit.every((d) => !('statusUpdate' in d.body))).toBe(true);
        expect(JSON.stringify(forLit)).toContain('Lights: turn on the hall lights');

        // The same URL again changes its events and keeps its id.
        const changed = await call('configure_push_notifications', {
          agent_id: 'notes',
          webhook_url: hook.url,
          events: ['status_update'],
        });
        expect(changed).toMatchObject({ config_id: both.config_id, events: ['status_update'] });

        for (const id of configIds.splice(0))
          expect(await call('delete_push_notifications', { config_id: id })).toEqual({ config_id: id, active: false });
        const before = hook.received.length;
        await call('send_message', { agent_id: 'notes', text: 'nothing more' });
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect(hook.received).toHaveLength(before);
      } finally {
        for (const id of configIds) await call('delete_push_notifications', { config_id: id }).catch(() => undefined);
        await hook.close();
      }
    });

    it('refuses a webhook it may not call, for an agent it does not know', async () => {
      expect(
        await refused('configure_push_notifications', { agent_id: 'nope', webhook_url: 'http://127.0.0.1:9/hook' }),
      ).toBe('Agent not found: nope');
      expect(await refused('configure_push_notifications', { agent_id: 'notes', webhook_url: 'not a url' })).toBe(
        'webhook_url must be an absolute http(s) URL',
      );
      expect(
        await refused('configure_push_notifications', { agent_id: 'notes', webhook_url: 'ftp://127.0.0.1/hook' }),
      ).toBe('webhook_url must use http or https, got "ftp:"');
      const metadata = await refused('configure_push_notifications', {
        agent_id: 'notes',
        webhook_url: 'http://169.254.169.254/latest/meta-data?token=s3cret',
      });
      expect(metadata).toMatch(/^webhook_url is not allowed: /);
      expect(metadata).not.toContain('s3cret');
      expect(
        await refused('configure_push_notifications', {
          agent_id: 'notes',
          webhook_url: 'http://127.0.0.1:9/hook',
          events: ['everything'],
        }),
      ).toMatch(/events/);
      expect(await refused('delete_push_notifications', { config_id: '00000000-0000-4000-8000-000000000000' })).toBe(
        'Push notification config not found: 00000000-0000-4000-8000-000000000000',
      );
    });

    it('shows the extended record without secrets', async () => {
      const record = await call('get_extended_agent_card', { agent_id: 'lights' });
      expect(record).toMatchObject({
        agent_id: 'lights',
        auth_mode: 'none',
        has_secret: false,
        card: { name: 'Lights' },
      });
      expect(record.extended_card).toBeUndefined();
    });
  });

  it('needs an API key for /mcp, and each tool its scope', async () => {
    const anonymous = new Client({ name: 'anonymous', version: '1.0.0' });
    await expect(anonymous.connect(transports['Streamable HTTP']('wrong-key-wrong-key-wrong-key'))).rejects.toThrow(
      /Invalid API key/,
    );
    const noKey = await t.http().post('/mcp').send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: {} });
    expect(noKey.status).toBe(401);
    expect(noKey.body).toMatchObject({ jsonrpc: '2.0', error: { message: expect.stringMatching(/API key/) } });
    const limited = new Client({ name: 'limited', version: '1.0.0' });
    await limited.connect(transports['Streamable HTTP'](messagesKey));
    try {
      const result = (await limited.callTool({
        name: 'resolve_agent_card',
        arguments: { base_url: lights.baseUrl },
      })) as Json;
      expect(result).toMatchObject({
        isError: true,
        content: [{ type: 'text', text: 'Forbidden: resolve_agent_card needs an API key with the agents:write scope' }],
      });
      const sent = (await limited.callTool({
        name: 'send_message',
        arguments: { agent_id: 'notes', text: 'hi' },
      })) as Json;
      expect(sent.isError).toBeFalsy();
    } finally {
      await limited.close();
    }
  });

  it('answers 404 for an unknown session, 400 without one', async () => {
    const unknown = await t
      .http()
      .post('/mcp')
      .set('X-Api-Key', TEST_ADMIN_KEY)
      .set('Mcp-Session-Id', 'no-such-session')
      .set('Accept', 'application/json, text/event-stream')
      .send({ jsonrpc: '2.0', id: 1, method: 'tools/list' })
      .expect(404);
    expect(unknown.body).toMatchObject({
      jsonrpc: '2.0',
      error: { code: -32000, message: expect.stringMatching(/^Session not found/) },
    });
    await t
      .http()
      .post('/mcp')
      .set('X-Api-Key', TEST_ADMIN_KEY)
      .send({ jsonrpc: '2.0', id: 1, method: 'tools/list' })
      .expect(400);
  });
});

/** The deliveries about one task, once one of them satisfies `until` (waits up to 5 s). */
async function deliveriesOf(
  received: WebhookDelivery[],
  taskId: string,
  until: (delivery: WebhookDelivery) => boolean,
): Promise<WebhookDelivery[]> {
  const about = () => received.filter((d) => JSON.stringify(d.body).includes(taskId));
  for (let i = 0; i < 100 && !about().some(until); i++) await new Promise((resolve) => setTimeout(resolve, 50));
  expect(about().some(until)).toBe(true);
  return about();
}

function isFinalDelivery(delivery: WebhookDelivery): boolean {
  return /TASK_STATE_(COMPLETED|FAILED|CANCELED)/.test(JSON.stringify(delivery.body));
}

function hasArtifact(delivery: WebhookDelivery): boolean {
  const body = delivery.body as Json;
  return 'artifactUpdate' in body || (body.task?.artifacts?.length ?? 0) > 0;
}
