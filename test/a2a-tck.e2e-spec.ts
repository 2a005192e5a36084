import { AgentCard, Message, Role, StreamResponse, TaskState } from '@a2a-js/sdk';
import { Client, ClientFactory, JsonRpcTransportFactory, RestTransportFactory } from '@a2a-js/sdk/client';
import { AgentEvent, type AgentExecutor } from '@a2a-js/sdk/server';
import { DefaultRequestHandler as V03RequestHandler, InMemoryTaskStore as V03TaskStore } from 'a2a-sdk-v03/server';
import { A2AExpressApp } from 'a2a-sdk-v03/server/express';
import express from 'express';
import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { agentTextMessage } from '../src/a2a/executors/agent-messages';
import { validateAgentCard } from '../src/registry/card/card-validator';
import { v1Client } from './support/a2a-clients';
import { startV1Agent } from './support/remote-agents';
import { registerAgent, startTestApp, TEST_ADMIN_KEY, TestApp } from './support/test-app';

interface Remote {
  baseUrl: string;
  /** JSON-RPC methods the agent was called with, in order. */
  methods: string[];
  close(): Promise<void>;
}

async function serve(app: express.Express, methods: string[]): Promise<Remote> {
  const server = await new Promise<Server>((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    methods,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function recording(app: express.Express, methods: string[]): void {
  app.use(express.json(), (req, _res, next) => {
    const method = (req.body as { method?: unknown } | undefined)?.method;
    if (typeof method === 'string') methods.push(method);
    next();
  });
}

/**
 * A streaming agent on the official SDK 0.3.14 that asks "Which room?" (input-required) and, when
 * the task is continued, streams a status update first - working - then completes it.
 */
async function startV03Asker(): Promise<Remote> {
  const methods: string[] = [];
  const app = express();
  recording(app, methods);
  const remote = await serve(app, methods);
  const card = {
    protocolVersion: '0.3.0',
    name: 'Rooms',
    description: 'Asks which room, then acts',
    url: `${remote.baseUrl}/`,
    preferredTransport: 'JSONRPC',
    version: '1.0.0',
    capabilities: { streaming: true, pushNotifications: false },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [{ id: 'rooms', name: 'Rooms', description: 'Acts in a room', tags: ['rooms'] }],
  };
  type Bus = { publish(event: unknown): void; finished(): void };
  const say = (taskId: string, contextId: string, text: string) => ({
    kind: 'message',
    role: 'agent',
    messageId: randomUUID(),
    taskId,
    contextId,
    parts: [{ kind: 'text', text }],
  });
  const executor = {
    async execute(
      ctx: { taskId: string; contextId: string; task?: unknown; userMessage: { parts: { text?: string }[] } },
      bus: Bus,
    ) {
      const { taskId, contextId } = ctx;
      const now = () => new Date().toISOString();
      const text = ctx.userMessage.parts.map((p) => p.text ?? '').join(' ');
      if (!ctx.task) {
        bus.publish({
          kind: 'task',
          id: taskId,
          contextId,
          status: { state: 'input-required', timestamp: now(), message: say(taskId, contextId, 'Which room?') },
          history: [ctx.userMessage],
        });
      } else {
        bus.publish({
          kind: 'status-update',
          taskId,
          contextId,
          status: { state: 'working', timestamp: now() },
          final: false,
        });
        bus.publish({
          kind: 'status-update',
          taskId,
          contextId,
          status: { state: 'completed', timestamp: now(), message: say(taskId, contextId, `Done: ${text}`) },
          final: true,
        });
      }
      bus.finished();
    },
    async cancelTask() {},
  };
  const handler = new V03RequestHandler(card, new V03TaskStore(), executor as never);
  new A2AExpressApp(handler).setupRoutes(app, '');
  return remote;
}

/**
 * The same agent on the official SDK 1.3 (v1.0 and v0.3, JSON-RPC and HTTP+JSON): its own SDK refuses to stream
 * a continuation whose first event is a status update ("Received statusUpdate before initial
 * 'Message'/'Task' event"), but takes it as a plain SendMessage.
 */
async function startV1Asker(): Promise<Remote> {
  const execute: AgentExecutor['execute'] = async (ctx, bus) => {
    const text = ctx.userMessage.parts.flatMap((p) => (p.content?.$case === 'text' ? [p.content.value] : [])).join(' ');
    const status = (state: TaskState, answer: string | undefined) => ({
      state,
      message: answer === undefined ? undefined : agentTextMessage(answer, ctx.contextId, ctx.taskId),
      timestamp: new Date().toISOString(),
    });
    if (!ctx.task) {
      bus.publish(
        AgentEvent.task({
          id: ctx.taskId,
          contextId: ctx.contextId,
          status: status(TaskState.TASK_STATE_INPUT_REQUIRED, 'Which room?'),
          history: [ctx.userMessage],
          artifacts: [],
          metadata: undefined,
        }),
      );
    } else {
      const update = (state: TaskState, answer?: string) =>
        AgentEvent.statusUpdate({
          taskId: ctx.taskId,
          contextId: ctx.contextId,
          status: status(state, answer),
          metadata: undefined,
        });
      bus.publish(update(TaskState.TASK_STATE_WORKING));
      bus.publish(update(TaskState.TASK_STATE_COMPLETED, `Done: ${text}`));
    }
    bus.finished();
  };
  const agent = await startV1Agent(
    { name: 'Rooms', description: 'Asks which room, then acts', version: '1.0.0' },
    { id: 'rooms', name: 'Rooms', description: 'Acts in a room', tags: ['rooms'], examples: [] },
    execute,
    { streaming: true },
  );
  return {
    baseUrl: agent.baseUrl,
    get methods() {
      return agent.requests.flatMap((r) => {
        const method = (r.body as { method?: unknown } | undefined)?.method;
        return typeof method === 'string' ? [method] : [];
      });
    },
    close: () => agent.close(),
  };
}

/** A user message; `continues` names the task it answers. */
const userMessage = (text: string, continues?: { id: string; contextId: string }): Message => ({
  messageId: randomUUID(),
  contextId: continues?.contextId ?? '',
  taskId: continues?.id ?? '',
  role: Role.ROLE_USER,
  parts: [{ content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: 'text/plain' }],
  metadata: undefined,
  extensions: [],
  referenceTaskIds: [],
});
const send = (message: Message) => ({ tenant: '', message, configuration: undefined, metadata: undefined });
const textOf = (message?: Message) =>
  (message?.parts ?? []).flatMap((p) => (p.content?.$case === 'text' ? [p.content.value] : [])).join(' ');

/** fetch that sends the API key, as a deployment's client would, and nothing else. */
const withKey: typeof fetch = (input, init) => {
  const headers = new Headers(init?.headers);
  headers.set('X-Api-Key', TEST_ADMIN_KEY);
  return fetch(input, { ...init, headers });
};

/**
 * What the official A2A TCK checks, for each item of issue 16, done the way the TCK does it:
 * discovery from the card fetched without an A2A-Version header, then every call through the
 * interfaces that card lists.
 */
describe('A2A TCK-style checks through the hub (e2e)', () => {
  let t: TestApp;
  let v03Asker: Remote;
  let v1Asker: Remote;

  beforeAll(async () => {
    t = await startTestApp({
      ALLOW_PRIVATE_NETWORK_TARGETS: 'true',
      RATE_LIMIT_REGISTRY_PER_MIN: '1000',
      RATE_LIMIT_CONVERSATION_PER_MIN: '10000',
    });
    [v03Asker, v1Asker] = await Promise.all([startV03Asker(), startV1Asker()]);
    await registerAgent(t, v03Asker.baseUrl, 'rooms-v03');
    await registerAgent(t, v1Asker.baseUrl, 'rooms-v1');
  });
  afterAll(async () => {
    await t?.close();
    await v03Asker?.close();
    await v1Asker?.close();
  });

  /** The card as the TCK fetches it: a plain GET, no A2A-Version header. */
  const discover = async (path: string) => {
    const res = await fetch(`${t.baseUrl}${path}`);
    expect(res.status).toBe(200);
    return (await res.json()) as Record<string, unknown> & {
      supportedInterfaces: { url: string; protocolBinding: string; protocolVersion: string; tenant?: string }[];
    };
  };
  const interfaceOf = async (agentPath: string, binding: string, version = '1.0') => {
    const card = await discover(`${agentPath}/.well-known/agent-card.json`);
    const found = card.supportedInterfaces.find((i) => i.protocolBinding === binding && i.protocolVersion === version);
    if (!found) throw new Error(`no ${binding} ${version} interface on the card`);
    return found.url;
  };
  const post = (url: string, body: unknown, version?: string) =>
    fetch(url, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        'X-Api-Key': TEST_ADMIN_KEY,
        ...(version ? { 'A2A-Version': version } : {}),
      },
      body: JSON.stringify(body),
    });

  describe('item 3: discovery without an A2A-Version header', () => {
    it.each(['/.well-known/agent-card.json', '/api/agents/rooms-v1/.well-known/agent-card.json'])(
      '%s has the v0.3 fields and the v1.0 supportedInterfaces',
      async (path) => {
        const card = await discover(path);
        expect(card).toMatchObject({
          protocolVersion: '0.3.0',
          preferredTransport: 'JSONRPC',
          url: expect.any(String),
        });
        expect(card.additionalInterfaces).toEqual(expect.arrayContaining([{ url: card.url, transport: 'JSONRPC' }]));
        const bindings = card.supportedInterfaces.map((i) => `${i.protocolBinding} ${i.protocolVersion}`);
        expect(bindings).toEqual(
          expect.arrayContaining(['JSONRPC 1.0', 'HTTP+JSON 1.0', 'GRPC 1.0', 'JSONRPC 0.3', 'HTTP+JSON 0.3']),
        );
        expect(validateAgentCard(card, { baseUrl: t.baseUrl })).toMatchObject({ validation: 'passed' });
      },
    );

    it('a v1.0 client reads that card and talks to the agent on the interface it lists', async () => {
      const card = AgentCard.fromJSON(await discover('/.well-known/agent-card.json'));
      const client = await new ClientFactory({
        transports: [
          new JsonRpcTransportFactory({ fetchImpl: withKey }),
          new RestTransportFactory({ fetchImpl: withKey }),
        ],
        preferredTransports: ['JSONRPC'],
      }).createFromAgentCard(card);
      const answer = await client.sendMessage(send(userMessage('hello')));
      expect(answer).toHaveProperty(answer && 'messageId' in answer ? 'messageId' : 'id');
    });
  });

  describe('item 2: version negotiation on every HTTP binding the card lists', () => {
    it.each(['JSONRPC', 'HTTP+JSON'])('%s answers A2A-Version 0.5 with VersionNotSupportedError', async (binding) => {
      const url = await interfaceOf('/api/agents/rooms-v1', binding);
      if (binding === 'JSONRPC') {
        const res = await post(url, { jsonrpc: '2.0', id: 'ver', method: 'GetTask', params: { id: 'x' } }, '0.5');
        expect(await res.json()).toMatchObject({
          id: 'ver',
          error: { code: -32009, data: [expect.objectContaining({ reason: 'VERSION_NOT_SUPPORTED' })] },
        });
      } else {
        const res = await fetch(`${url}/tasks/x`, { headers: { 'X-Api-Key': TEST_ADMIN_KEY, 'A2A-Version': '0.5' } });
        expect(res.status).toBe(400);
        expect(await res.json()).toMatchObject({
          error: {
            status: 'FAILED_PRECONDITION',
            details: [expect.objectContaining({ reason: 'VERSION_NOT_SUPPORTED' })],
          },
        });
      }
    });
  });

  describe('item 1: invalid params are invalid params, never an internal error', () => {
    it.each([
      ['parts [null]', { messageId: 'm-1', role: 'ROLE_USER', parts: [null] }, 'message.parts[0] must be an object'],
      ['no messageId', { role: 'ROLE_USER', parts: [{ text: 'hi' }] }, 'message.messageId must be a non-empty string'],
      [
        'metadata a string',
        { messageId: 'm-2', role: 'ROLE_USER', parts: [{ text: 'hi' }], metadata: 'x' },
        'message.metadata',
      ],
    ])('SendMessage with %s: -32602 on JSON-RPC, 400 INVALID_ARGUMENT on HTTP+JSON', async (_name, message, field) => {
      const rpc = await post(
        await interfaceOf('/api/agents/rooms-v1', 'JSONRPC'),
        {
          jsonrpc: '2.0',
          id: 1,
          method: 'SendMessage',
          params: { message },
        },
        '1.0',
      );
      expect(await rpc.json()).toMatchObject({ error: { code: -32602, message: expect.stringContaining(field) } });
      const rest = await post(
        `${await interfaceOf('/api/agents/rooms-v1', 'HTTP+JSON')}/message:send`,
        { message },
        '1.0',
      );
      expect(rest.status).toBe(400);
      expect(await rest.json()).toMatchObject({
        error: { status: 'INVALID_ARGUMENT', message: expect.stringContaining(field) },
      });
    });
  });

  describe('item 4: ProtoJSON field names', () => {
    it('GetTask and the push config lifecycle with task_id, history_length, page_size', async () => {
      const url = await interfaceOf('/api/agents/rooms-v1', 'JSONRPC');
      const rpc = async (method: string, params: object) => {
        const body = (await (await post(url, { jsonrpc: '2.0', id: method, method, params }, '1.0')).json()) as {
          result?: Record<string, unknown> & { id: string; configs?: { id: string }[] };
          error?: unknown;
        };
        expect(body.error).toBeUndefined();
        return body.result!;
      };
      const task = (
        await rpc('SendMessage', {
          message: { message_id: randomUUID(), role: 'ROLE_USER', parts: [{ text: 'lights' }] },
        })
      ).task as { id: string };
      expect(await rpc('GetTask', { id: task.id, history_length: 1 })).toMatchObject({
        id: task.id,
        history: [expect.anything()],
      });
      const config = await rpc('CreateTaskPushNotificationConfig', {
        task_id: task.id,
        url: 'http://127.0.0.1:9/hook',
      });
      expect(config).toMatchObject({ taskId: task.id });
      expect(await rpc('GetTaskPushNotificationConfig', { task_id: task.id, id: config.id })).toMatchObject({
        id: config.id,
      });
      expect((await rpc('ListTaskPushNotificationConfigs', { task_id: task.id, page_size: 5 })).configs).toHaveLength(
        1,
      );
      await rpc('DeleteTaskPushNotificationConfig', { task_id: task.id, id: config.id });
      expect((await rpc('ListTaskPushNotificationConfigs', { task_id: task.id })).configs ?? []).toEqual([]);
    });
  });

  describe('item 5: a remote agent continuing a task with a stream that starts with a status update', () => {
    let client: Client;
    const ask = async (agent: string) => {
      client = await v1Client(`${t.baseUrl}/api/agents/${agent}`, 'JSONRPC', TEST_ADMIN_KEY);
      const first = await client.sendMessage(send(userMessage('turn on the lights')));
      if (!('status' in first)) throw new Error('expected a task');
      expect(first.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
      expect(textOf(first.status?.message)).toBe('Which room?');
      return first;
    };
    const collect = async (stream: AsyncGenerator<StreamResponse>) => {
      const events: StreamResponse[] = [];
      for await (const event of stream) events.push(event);
      return events;
    };
    const stateOf = (event: StreamResponse) =>
      event.payload?.$case === 'task' || event.payload?.$case === 'statusUpdate'
        ? event.payload.value.status?.state
        : undefined;

    it('SDK 0.3 remote: the hub streams the known task first (still input-required), then the updates', async () => {
      const task = await ask('rooms-v03');
      const events = await collect(client.sendMessageStream(send(userMessage('the kitchen', task))));
      const first = events[0].payload;
      expect(first?.$case).toBe('task');
      if (first?.$case !== 'task') return;
      expect(first.value).toMatchObject({ id: task.id, contextId: task.contextId });
      expect(first.value.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
      expect(first.value.history.map(textOf)).toEqual(['turn on the lights', 'the kitchen']);
      expect(events.slice(1).map(stateOf)).toEqual([TaskState.TASK_STATE_WORKING, TaskState.TASK_STATE_COMPLETED]);
      const done = await client.getTask({ tenant: '', id: task.id, historyLength: undefined });
      expect(done.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
      expect(textOf(done.status?.message)).toBe('Done: the kitchen');
    });

    it('SDK 0.3 remote, blocking send: the continuation completes', async () => {
      const task = await ask('rooms-v03');
      const done = await client.sendMessage(send(userMessage('the hall', task)));
      expect(done).toMatchObject({ id: task.id, status: { state: TaskState.TASK_STATE_COMPLETED } });
      if ('status' in done) expect(textOf(done.status?.message)).toBe('Done: the hall');
    });

    it.each(['stream', 'send'])(
      'SDK 1.3 remote (refuses its own stream): the hub sends the turn again as a plain message (%s)',
      async (how) => {
        const task = await ask('rooms-v1');
        const before = v1Asker.methods.length;
        const continued = send(userMessage('the bedroom', task));
        if (how === 'stream') {
          const events = await collect(client.sendMessageStream(continued));
          expect(stateOf(events.at(-1)!)).toBe(TaskState.TASK_STATE_COMPLETED);
        } else {
          expect(await client.sendMessage(continued)).toMatchObject({
            status: { state: TaskState.TASK_STATE_COMPLETED },
          });
        }
        const done = await client.getTask({ tenant: '', id: task.id, historyLength: undefined });
        expect(done.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
        expect(textOf(done.status?.message)).toBe('Done: the bedroom');
        expect(done.metadata?.switchboard_remote_failure).toBeUndefined();
        expect(v1Asker.methods.slice(before)).toEqual(['SendStreamingMessage', 'SendMessage']);
      },
    );
  });

  describe('item 6: a webhook host that does not resolve', () => {
    it('is refused at registration, naming the host and why', async () => {
      const client = await v1Client(`${t.baseUrl}/api/agents/rooms-v1`, 'JSONRPC', TEST_ADMIN_KEY);
      const task = await client.sendMessage(send(userMessage('turn on the lights')));
      const refusal = client.createTaskPushNotificationConfig({
        tenant: '',
        id: '',
        taskId: 'id' in task ? task.id : '',
        url: 'https://nowhere.switchboard.invalid/hook',
        token: '',
        authentication: undefined,
      });
      await expect(refusal).rejects.toMatchObject({
        name: 'RequestMalformedError',
        message:
          'Push notification url is not reachable: nowhere.switchboard.invalid does not resolve (host not found)',
      });
    });
  });
});
