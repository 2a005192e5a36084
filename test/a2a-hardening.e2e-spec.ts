import { randomUUID } from 'node:crypto';
import type { Response } from 'supertest';
import { startTestApp, TEST_ADMIN_KEY, TestApp } from './support/test-app';

/** `value` at the dotted `path` of a copy of `base` (undefined: the member removed). */
function mutate(base: object, path: string, value: unknown): Record<string, unknown> {
  const copy = structuredClone(base) as Record<string, unknown>;
  const keys = path.split('.');
  let target = copy;
  for (const key of keys.slice(0, -1)) {
    target[key] ??= {};
    target = target[key] as Record<string, unknown>;
  }
  const last = keys.at(-1)!;
  if (value === undefined) delete target[last];
  else target[last] = value;
  return copy;
}

const v03Message = () => ({
  kind: 'message',
  role: 'user',
  messageId: randomUUID(),
  parts: [{ kind: 'text', text: 'turn on the light' }],
});
const v1Message = () => ({ role: 'ROLE_USER', messageId: randomUUID(), parts: [{ text: 'turn on the light' }] });
const v03RestMessage = () => ({ role: 'ROLE_USER', messageId: randomUUID(), content: [{ text: 'turn on the light' }] });

/** What each entry point is sent, as mutations of one valid request: [path, value, field named in the refusal]. */
type Mutation = [path: string, value: unknown, field: string];

/** Mutations a v0.3 or v1.0 SendMessageConfiguration / metadata share. */
const sharedMutations = (pushField: string): Mutation[] => [
  ['configuration', 'x', 'configuration must be an object'],
  ['configuration', [], 'configuration must be an object'],
  ['configuration.acceptedOutputModes', {}, 'configuration.acceptedOutputModes must be an array'],
  ['configuration.acceptedOutputModes', [null], 'configuration.acceptedOutputModes[0] must be a string'],
  ['configuration.acceptedOutputModes', ['text/plain', 7], 'configuration.acceptedOutputModes[1] must be a string'],
  ['configuration.historyLength', 1.5, 'configuration.historyLength must be a whole number, 0 or more'],
  ['configuration.historyLength', -1, 'configuration.historyLength must be a whole number, 0 or more'],
  ['configuration.historyLength', {}, 'configuration.historyLength must be a whole number, 0 or more'],
  [`configuration.${pushField}`, 5, `configuration.${pushField} must be an object`],
  [`configuration.${pushField}`, { token: 't' }, `configuration.${pushField}.url must be a non-empty string`],
  ['metadata', 'x', 'metadata must be an object'],
  ['metadata', [1], 'metadata must be an object'],
  ['message', 'hi', 'message must be an object'],
  ['message', undefined, 'message must be an object'],
  ['message.metadata', 'x', 'message.metadata must be an object'],
  ['message.metadata', [], 'message.metadata must be an object'],
  ['message.extensions', [null], 'message.extensions[0] must be a string'],
  ['message.extensions', 'ext', 'message.extensions must be an array'],
  ['message.contextId', 5, 'message.contextId must be a string'],
  ['message.taskId', {}, 'message.taskId must be a string'],
];

const V03_JSON_RPC: Mutation[] = [
  ...sharedMutations('pushNotificationConfig'),
  ['configuration.blocking', 'yes', 'configuration.blocking must be a boolean'],
  ['configuration.blocking', 1, 'configuration.blocking must be a boolean'],
  ['message.parts', [null], 'message.parts[0] must be an object'],
  ['message.parts', [[]], 'message.parts[0] must be an object'],
  ['message.parts', [5], 'message.parts[0] must be an object'],
  ['message.parts', {}, 'message.parts must be an array'],
  ['message.parts', 'hi', 'message.parts must be an array'],
  ['message.parts', [{ kind: 'text', text: 5 }], 'message.parts[0].text must be a string'],
  ['message.parts', [{ kind: 'text' }], 'message.parts[0].text must be a string'],
  ['message.parts', [{ kind: 'file', file: null }], 'message.parts[0].file must be an object'],
  ['message.parts', [{ kind: 'file', file: {} }], 'message.parts[0].file must have bytes or uri'],
  ['message.parts', [{ kind: 'file', file: { uri: 5 } }], 'message.parts[0].file.uri must be a string'],
  ['message.parts', [{ kind: 'data' }], 'message.parts[0].data'],
  ['message.parts', [{ kind: 'text', text: 'x', metadata: 5 }], 'message.parts[0].metadata must be an object'],
  ['message.parts', [{ kind: 'video', text: 'x' }], 'message.parts[0].kind must be one of "text", "file", "data"'],
  ['message.referenceTaskIds', [null], 'message.referenceTaskIds[0] must be a string'],
  ['message.role', 'robot', 'message.role must be one of "user", "agent"'],
];

const V1: Mutation[] = [
  ...sharedMutations('taskPushNotificationConfig'),
  ['configuration.returnImmediately', 'x', 'configuration.returnImmediately must be a boolean'],
  ['configuration.historyLength', 'ten', 'configuration.historyLength must be a whole number, 0 or more'],
  ['message.parts', [null], 'message.parts[0] must be an object'],
  ['message.parts', [5], 'message.parts[0] must be an object'],
  ['message.parts', {}, 'message.parts must be an array'],
  ['message.parts', [{}], 'message.parts[0] must have text, raw, url or data'],
  ['message.parts', [{ text: 'a', url: 'https://x.example/a' }], 'message.parts[0] must have only one of'],
  ['message.parts', [{ text: 5 }], 'message.parts[0].text must be a string'],
  ['message.parts', [{ raw: '!!not base64!!' }], 'message.parts[0].raw must be base64 text'],
  ['message.parts', [{ text: 'x', metadata: [] }], 'message.parts[0].metadata must be an object'],
  ['message.parts', [{ text: 'x', media_type: 7 }], 'message.parts[0].media_type must be a string'],
  ['message.referenceTaskIds', [null], 'message.referenceTaskIds[0] must be a string'],
  ['message.reference_task_ids', [1], 'message.reference_task_ids[0] must be a string'],
  ['message.role', 'ROLE_ROBOT', 'message.role must be one of "ROLE_USER", "ROLE_AGENT", 1, 2'],
  ['message.role', undefined, 'message.role must be one of'],
  ['message.messageId', undefined, 'message.messageId must be a non-empty string'],
  ['message.messageId', null, 'message.messageId must be a non-empty string'],
  ['message.messageId', '', 'message.messageId must be a non-empty string'],
];

const V03_REST: Mutation[] = [
  ['configuration', 'x', 'configuration must be an object'],
  ['configuration.acceptedOutputModes', {}, 'configuration.acceptedOutputModes must be an array'],
  ['configuration.acceptedOutputModes', [null], 'configuration.acceptedOutputModes[0] must be a string'],
  ['configuration.accepted_output_modes', [null], 'configuration.accepted_output_modes[0] must be a string'],
  ['configuration.historyLength', 1.5, 'configuration.historyLength must be a whole number, 0 or more'],
  ['configuration.blocking', 'yes', 'configuration.blocking must be a boolean'],
  ['configuration.pushNotification', 5, 'configuration.pushNotification must be an object'],
  ['metadata', 'x', 'metadata must be an object'],
  ['message', 'hi', 'message must be an object'],
  ['message', undefined, 'message must be an object'],
  ['message.content', [null], 'message.content[0] must be an object'],
  ['message.content', {}, 'message.content must be an array'],
  ['message.content', [{}], 'message.content[0] must have text, file or data'],
  ['message.content', [{ file: {} }], 'message.content[0].file must have fileWithUri or fileWithBytes'],
  ['message.content', [{ data: 5 }], 'message.content[0].data must be an object'],
  ['message.content', [{ data: { data: 5 } }], 'message.content[0].data.data must be an object'],
  ['message.content', [{ text: 5 }], 'message.content[0].text must be a string'],
  ['message.metadata', 'x', 'message.metadata must be an object'],
  ['message.extensions', [null], 'message.extensions[0] must be a string'],
  ['message.role', 'robot', 'message.role must be one of'],
];

/**
 * Issue 16, "wrap every SDK entry point": params the SDK would trip on (an internal error -32603
 * or HTTP 500) or silently coerce are refused by the hub first, with the A2A error for invalid
 * params - JSON-RPC -32602, HTTP+JSON 400 in the version's error format - naming the field. Also
 * A2A-Version negotiation, ProtoJSON field names and webhook hosts that do not resolve.
 */
describe('A2A entry points, hardened (e2e)', () => {
  let t: TestApp;
  const key = { 'X-Api-Key': TEST_ADMIN_KEY };
  const orchestrator = '/api/agents/orchestrator';

  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_CONVERSATION_PER_MIN: '100000', ALLOW_PRIVATE_NETWORK_TARGETS: 'false' });
  });
  afterAll(async () => t?.close());

  const jsonRpc = (version: string | undefined, body: unknown) => {
    const req = t.http().post(`${orchestrator}/v1`).set(key).set('Content-Type', 'application/json');
    if (version !== undefined) req.set('A2A-Version', version);
    return req.send(typeof body === 'string' ? body : JSON.stringify(body));
  };
  const rest = (method: 'get' | 'post' | 'delete', version: string | undefined, path: string, body?: string) => {
    const req = t.http()[method](`${orchestrator}/json${path}`).set(key);
    if (version !== undefined) req.set('A2A-Version', version);
    return body === undefined ? req : req.set('Content-Type', 'application/json').send(body);
  };
  const call = (id: string | number, method: string, params: unknown) => ({ jsonrpc: '2.0', id, method, params });

  /** Never a server error, whatever the request. */
  const noServerError = (res: Response) => {
    expect(res.status).toBeLessThan(500);
    expect(res.body?.error?.code).not.toBe(-32603);
    expect(JSON.stringify(res.body)).not.toMatch(/Cannot read|is not iterable|undefined|TypeError/);
  };

  interface EntryPoint {
    name: string;
    base: () => Record<string, unknown>;
    mutations: Mutation[];
    send: (body: object) => Promise<Response>;
    refused: (res: Response, field: string) => void;
  }

  const jsonRpcRefusal = (res: Response, field: string, id: string | number = 'm') => {
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ jsonrpc: '2.0', id, error: { code: -32602 } });
    expect(res.body.error.message).toContain(field);
  };
  const v1RestRefusal = (res: Response, field: string) => {
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({
      code: 400,
      status: 'INVALID_ARGUMENT',
      details: [expect.objectContaining({ reason: 'INVALID_PARAMS', domain: 'a2a-protocol.org' })],
    });
    expect(res.body.error.message).toContain(field);
  };
  const v03RestRefusal = (res: Response, field: string) => {
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: -32602 });
    expect(res.body.message).toContain(field);
  };

  const ENTRY_POINTS: EntryPoint[] = [
    {
      name: 'JSON-RPC v0.3 message/send',
      base: () => ({ message: v03Message(), configuration: { blocking: true } }),
      mutations: V03_JSON_RPC,
      send: (params) => jsonRpc(undefined, call('m', 'message/send', params)),
      refused: jsonRpcRefusal,
    },
    {
      name: 'JSON-RPC v0.3 message/stream',
      base: () => ({ message: v03Message() }),
      mutations: V03_JSON_RPC.filter(([path]) => path.startsWith('message.parts')),
      send: (params) => jsonRpc(undefined, call('m', 'message/stream', params)),
      refused: jsonRpcRefusal,
    },
    {
      name: 'JSON-RPC v1.0 SendMessage',
      base: () => ({ message: v1Message() }),
      mutations: V1,
      send: (params) => jsonRpc('1.0', call('m', 'SendMessage', params)),
      refused: jsonRpcRefusal,
    },
    {
      name: 'JSON-RPC v1.0 SendStreamingMessage',
      base: () => ({ message: v1Message() }),
      mutations: V1.filter(([path]) => path.startsWith('message.parts')),
      send: (params) => jsonRpc('1.0', call('m', 'SendStreamingMessage', params)),
      refused: jsonRpcRefusal,
    },
    {
      name: 'HTTP+JSON v1.0 message:send',
      base: () => ({ message: v1Message() }),
      mutations: V1,
      send: (body) => rest('post', '1.0', '/message:send', JSON.stringify(body)),
      refused: v1RestRefusal,
    },
    {
      name: 'HTTP+JSON v1.0 message:stream (tenant path)',
      base: () => ({ message: v1Message() }),
      mutations: V1.filter(([path]) => path.startsWith('message.parts')),
      send: (body) => rest('post', '1.0', '/orchestrator/message:stream', JSON.stringify(body)),
      refused: v1RestRefusal,
    },
    {
      name: 'HTTP+JSON v0.3 message:send',
      base: () => ({ message: v03RestMessage() }),
      mutations: V03_REST,
      send: (body) => rest('post', undefined, '/v1/message:send', JSON.stringify(body)),
      refused: v03RestRefusal,
    },
  ];

  describe.each(ENTRY_POINTS)('$name', ({ base, mutations, send, refused }) => {
    it('accepts the valid request each mutation starts from', async () => {
      const res = await send(base());
      noServerError(res);
      expect(res.status).toBeLessThan(300);
      expect(res.body?.error).toBeUndefined();
    });

    it.each(mutations)('%s = %j → invalid params naming %s', async (path, value, field) => {
      const res = await send(mutate(base(), path, value));
      noServerError(res);
      refused(res, field);
    });
  });

  describe('HTTP+JSON bodies that are not objects', () => {
    it.each([
      ['1.0', 'post', '/message:send'],
      ['1.0', 'post', '/orchestrator/message:send'],
      ['1.0', 'post', '/v1/message:send'],
      ['1.0', 'post', '/v1/tasks/x:cancel'],
      ['1.0', 'get', '/v1/tasks/x'],
      ['1.0', 'post', '/tasks/x/pushNotificationConfigs'],
    ] as const)('A2A-Version %s %s %s → 400 in the v1.0 format', async (version, method, path) => {
      for (const body of ['42', 'true', '"s"', '[]', '[null]', '-1.5e3']) {
        const res = await rest(method, version, path, body);
        noServerError(res);
        v1RestRefusal(res, 'the request body must be a JSON object');
      }
    });

    it.each([
      ['post', '/v1/message:send'],
      ['post', '/v1/tasks/x:cancel'],
    ] as const)('v0.3 %s %s → 400 in the v0.3 format', async (method, path) => {
      for (const body of ['42', 'true', '"s"', '[]']) {
        const res = await rest(method, undefined, path, body);
        noServerError(res);
        v03RestRefusal(res, 'the request body must be a JSON object');
      }
    });

    it('null is no body: a cancel goes on (the task is unknown), a send needs its message', async () => {
      const cancel = await rest('post', '1.0', '/v1/tasks/nope:cancel', 'null');
      expect(cancel.status).toBe(404);
      v1RestRefusal(await rest('post', '1.0', '/v1/message:send', 'null'), 'message must be an object');
      v03RestRefusal(await rest('post', undefined, '/v1/message:send', 'null'), 'message must be an object');
    });

    it('a message metadata nested past JSON_MAX_DEPTH is stopped by the depth limit, on both bindings', async () => {
      const deep = `${'{"a":'.repeat(1000)}1${'}'.repeat(1000)}`;
      const message = `{"role":"ROLE_USER","messageId":"m-deep","parts":[{"text":"hi"}],"metadata":${deep}}`;
      const viaRpc = await jsonRpc(
        '1.0',
        `{"jsonrpc":"2.0","id":"d","method":"SendMessage","params":{"message":${message}}}`,
      );
      noServerError(viaRpc);
      expect(viaRpc.body.error.message).toContain('JSON_MAX_DEPTH');
      const viaRest = await rest('post', '1.0', '/message:send', `{"message":${message}}`);
      noServerError(viaRest);
      expect(viaRest.status).toBe(400);
      expect(JSON.stringify(viaRest.body)).toContain('JSON_MAX_DEPTH');
    });
  });

  describe('v1.0 is taken as the specification writes it; v0.3 field clients stay tolerated', () => {
    it('a v1.0 SendMessage without messageId is -32602 (no id is made up for it)', async () => {
      const message = mutate(v1Message(), 'messageId', undefined);
      const res = await jsonRpc('1.0', call(3, 'SendMessage', { message }));
      expect(res.body).toEqual({
        jsonrpc: '2.0',
        id: 3,
        error: { code: -32602, message: 'Invalid params: message.messageId must be a non-empty string' },
      });
    });

    it('a v0.3 message/send with messageId null, null optionals and parts without kind is served', async () => {
      const res = await jsonRpc(
        undefined,
        call(4, 'message/send', {
          configuration: null,
          metadata: null,
          message: {
            kind: 'message',
            role: 'user',
            messageId: null,
            taskId: null,
            contextId: null,
            metadata: null,
            parts: [{ text: 'turn on the light', metadata: null }],
          },
        }),
      );
      expect(res.body.error).toBeUndefined();
      expect(res.body.result.history[0]).toMatchObject({ messageId: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    });

    it.each([
      ['tasks/get', undefined, { id: 5 }, 'id must be a non-empty string'],
      ['tasks/pushNotificationConfig/set', undefined, { taskId: 't', pushNotificationConfig: { url: 5 } }, 'url'],
      ['GetTask', '1.0', { id: 't', historyLength: -2 }, 'historyLength must be a whole number, 0 or more'],
      ['GetTask', '1.0', { id: 't', history_length: 'x' }, 'history_length must be a whole number, 0 or more'],
      ['ListTasks', '1.0', { pageSize: 2.5 }, 'pageSize must be a whole number, 0 or more'],
      ['ListTasks', '1.0', { include_artifacts: 'yes' }, 'include_artifacts must be a boolean'],
      ['CancelTask', '1.0', { id: 't', metadata: 'x' }, 'metadata must be an object'],
      ['CreateTaskPushNotificationConfig', '1.0', { task_id: 5, url: 'https://x.example' }, 'task_id must be'],
      ['CreateTaskPushNotificationConfig', '1.0', { taskId: 't', url: 'https://x.example', token: 1 }, 'token'],
      ['GetTaskPushNotificationConfig', '1.0', { taskId: 't' }, 'id must be a non-empty string'],
      [
        'ListTaskPushNotificationConfigs',
        '1.0',
        { task_id: 't', page_size: -1 },
        'page_size must be a whole number, 0 or more',
      ],
      ['SubscribeToTask', '1.0', {}, 'id must be a non-empty string'],
    ])('%s (A2A-Version %s) %j → -32602 naming %s', async (method, version, params, field) => {
      const res = await jsonRpc(version, call('p', method, params));
      noServerError(res);
      jsonRpcRefusal(res, field, 'p');
    });
  });

  describe('A2A-Version negotiation', () => {
    const versionNotSupported = (version: string) => ({
      code: -32009,
      message: expect.stringContaining(`'${version}' is not supported`),
      data: [expect.objectContaining({ reason: 'VERSION_NOT_SUPPORTED', domain: 'a2a-protocol.org' })],
    });

    it.each(['0.5', '1.1', '2', '2.0', '0.2', 'v1', 'latest'])(
      'JSON-RPC with A2A-Version %s → -32009 VersionNotSupportedError, whatever the method',
      async (version) => {
        for (const method of ['GetTask', 'tasks/get', 'agents/explode']) {
          const res = await jsonRpc(version, call(`v-${method}`, method, { id: 'nope' })).expect(200);
          expect(res.body).toEqual({ jsonrpc: '2.0', id: `v-${method}`, error: versionNotSupported(version) });
        }
      },
    );

    it.each(['1', '1.0', '1.0.0', '1.0.7'])('JSON-RPC with A2A-Version %s is served as v1.0', async (version) => {
      const res = await jsonRpc(version, call('g', 'GetTask', { id: 'nope' })).expect(200);
      expect(res.body).toMatchObject({ id: 'g', error: { code: -32001, data: [{ reason: 'TASK_NOT_FOUND' }] } });
      const legacy = await jsonRpc(version, call('l', 'tasks/get', { id: 'nope' })).expect(200);
      expect(legacy.body).toMatchObject({ id: 'l', error: { code: -32601 } });
    });

    it.each([undefined, '0.3', '0.3.0', ''])('JSON-RPC with A2A-Version %j is served as v0.3', async (version) => {
      const res = await jsonRpc(version, call('g', 'tasks/get', { id: 'nope' })).expect(200);
      expect(res.body).toMatchObject({ id: 'g', error: { code: -32001 } });
      const v1 = await jsonRpc(version, call('v', 'GetTask', { id: 'nope' })).expect(200);
      expect(v1.body).toMatchObject({ id: 'v', error: { code: -32601 } });
    });

    it.each([
      ['get', '/tasks/nope', undefined],
      ['post', '/message:send', JSON.stringify({ message: v1Message() })],
      ['post', '/v1/message:send', JSON.stringify({ message: v03RestMessage() })],
    ] as const)(
      'HTTP+JSON %s %s with A2A-Version 0.5 → 400 FAILED_PRECONDITION, VERSION_NOT_SUPPORTED',
      async (method, path, body) => {
        const res = await rest(method, '0.5', path, body).expect(400);
        expect(res.body).toEqual({
          error: {
            code: 400,
            status: 'FAILED_PRECONDITION',
            message: expect.stringContaining("'0.5' is not supported"),
            details: [expect.objectContaining({ reason: 'VERSION_NOT_SUPPORTED', domain: 'a2a-protocol.org' })],
          },
        });
      },
    );

    it('HTTP+JSON with A2A-Version 1 or 1.0.2 is served as v1.0, without it as v0.3', async () => {
      for (const version of ['1', '1.0.2']) {
        const res = await rest('get', version, '/tasks/nope').expect(404);
        expect(res.body.error).toMatchObject({ status: 'NOT_FOUND', details: [{ reason: 'TASK_NOT_FOUND' }] });
      }
      const v03 = await rest('get', undefined, '/v1/tasks/nope').expect(404);
      expect(v03.body).toMatchObject({ code: -32001 });
    });

    it('the card: v1.0 for 1 or 1.0.x, the v0.3 card with supportedInterfaces for anything else', async () => {
      for (const version of ['1', '1.0.3']) {
        const card = (await t.http().get('/.well-known/agent-card.json').set('A2A-Version', version).expect(200)).body;
        expect(card.url).toBeUndefined();
        expect(card.supportedInterfaces.length).toBeGreaterThan(0);
      }
      for (const version of ['0.5', '0.3']) {
        const card = (await t.http().get('/.well-known/agent-card.json').set('A2A-Version', version).expect(200)).body;
        expect(card).toMatchObject({ protocolVersion: '0.3.0', preferredTransport: 'JSONRPC' });
        expect(card.supportedInterfaces).toEqual(
          expect.arrayContaining([expect.objectContaining({ protocolVersion: '1.0' })]),
        );
      }
    });
  });

  describe('v1.0 params under their proto field names (snake_case)', () => {
    const v1 = async (method: string, params: object) => {
      const res = await jsonRpc('1.0', call(method, method, params)).expect(200);
      expect(res.body.error).toBeUndefined();
      return res.body.result;
    };
    /** A documentation address (TEST-NET-1): public to the guard, never called here. */
    const hook = 'http://192.0.2.10/hooks/a2a';

    it('creates, reads, lists and deletes a push config given task_id', async () => {
      const task = (await v1('SendMessage', { message: v1Message() })).task;
      expect(task.status.state).toBe('TASK_STATE_INPUT_REQUIRED');
      const created = await v1('CreateTaskPushNotificationConfig', { task_id: task.id, url: hook, token: 'tok-1' });
      expect(created).toMatchObject({ taskId: task.id, url: hook, token: 'tok-1', id: expect.any(String) });
      expect(await v1('GetTaskPushNotificationConfig', { task_id: task.id, id: created.id })).toMatchObject({
        taskId: task.id,
        id: created.id,
        url: hook,
      });
      const listed = await v1('ListTaskPushNotificationConfigs', { task_id: task.id, page_size: 10 });
      expect(listed.configs).toEqual([expect.objectContaining({ id: created.id, url: hook })]);
      expect(await v1('DeleteTaskPushNotificationConfig', { task_id: task.id, id: created.id })).toBeNull();
      expect((await v1('ListTaskPushNotificationConfigs', { task_id: task.id })).configs ?? []).toEqual([]);
    });

    it('reads GetTask history_length and ListTasks context_id / page_size / page_token', async () => {
      const first = (await v1('SendMessage', { message: v1Message() })).task;
      const contextId = first.contextId as string;
      const second = (await v1('SendMessage', { message: { ...v1Message(), context_id: contextId } })).task;
      expect(second.contextId).toBe(contextId);
      expect((await v1('GetTask', { id: first.id })).history.length).toBeGreaterThan(0);
      expect((await v1('GetTask', { id: first.id, history_length: 0 })).history ?? []).toEqual([]);
      const page1 = await v1('ListTasks', { context_id: contextId, page_size: 1 });
      expect(page1.tasks).toHaveLength(1);
      expect(page1.nextPageToken).toEqual(expect.any(String));
      const page2 = await v1('ListTasks', { context_id: contextId, page_size: 1, page_token: page1.nextPageToken });
      expect([page1.tasks[0].id, page2.tasks[0].id].sort()).toEqual([first.id, second.id].sort());
      const all = await v1('ListTasks', { context_id: contextId });
      expect(all.tasks.every((task: { contextId: string }) => task.contextId === contextId)).toBe(true);
    });
  });

  describe('webhook URLs are checked when registered', () => {
    let taskId: string;
    const invalidHost = 'hooks.switchboard.invalid';
    const unresolvable = `Push notification url is not reachable: ${invalidHost} does not resolve (host not found)`;
    const url = `http://${invalidHost}/a2a?token=s3cret`;

    beforeAll(async () => {
      const res = await jsonRpc('1.0', call(1, 'SendMessage', { message: v1Message() })).expect(200);
      taskId = res.body.result.task.id;
    });

    it('v0.3 tasks/pushNotificationConfig/set with a host that does not resolve → -32602 naming host and reason', async () => {
      const res = await jsonRpc(
        undefined,
        call(5, 'tasks/pushNotificationConfig/set', { taskId, pushNotificationConfig: { url } }),
      ).expect(200);
      expect(res.body).toEqual({ jsonrpc: '2.0', id: 5, error: { code: -32602, message: unresolvable } });
      expect(JSON.stringify(res.body)).not.toContain('s3cret');
    });

    it('v1.0 CreateTaskPushNotificationConfig likewise, on JSON-RPC and HTTP+JSON', async () => {
      const res = await jsonRpc('1.0', call(6, 'CreateTaskPushNotificationConfig', { taskId, url })).expect(200);
      expect(res.body.error).toMatchObject({ code: -32602, message: unresolvable });
      const viaRest = await rest('post', '1.0', `/tasks/${taskId}/pushNotificationConfigs`, JSON.stringify({ url }));
      expect(viaRest.status).toBe(400);
      expect(viaRest.body.error).toMatchObject({ status: 'INVALID_ARGUMENT', message: unresolvable });
    });

    it('a webhook given with the message is refused the same way', async () => {
      const res = await jsonRpc(
        undefined,
        call(7, 'message/send', { message: v03Message(), configuration: { pushNotificationConfig: { url } } }),
      ).expect(200);
      expect(res.body).toEqual({ jsonrpc: '2.0', id: 7, error: { code: -32602, message: unresolvable } });
    });

    it('a private address stays refused (private networks are not allowed here)', async () => {
      const res = await jsonRpc(
        '1.0',
        call(8, 'CreateTaskPushNotificationConfig', { taskId, url: 'http://10.20.30.40/hook' }),
      );
      expect(res.body.error).toMatchObject({
        code: -32602,
        message: expect.stringContaining('is not allowed: private network addresses are not allowed'),
      });
    });

    it('a public host is accepted', async () => {
      const res = await jsonRpc(
        '1.0',
        call(9, 'CreateTaskPushNotificationConfig', { taskId, url: 'http://192.0.2.10/ok' }),
      );
      expect(res.body.error).toBeUndefined();
    });
  });
});
