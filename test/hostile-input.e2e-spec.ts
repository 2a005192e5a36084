import * as grpc from '@grpc/grpc-js';
import { createServer, Server, STATUS_CODES } from 'node:http';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { A2AService } from '@a2a-js/sdk/server/grpc';
import { call, rawUnaryError, switchboardClient, Unary } from './support/grpc-clients';
import { startTestApp, TEST_ADMIN_KEY, TestApp } from './support/test-app';

/** protobuf: a length-delimited field. */
function lengthDelimited(field: number, payload: Buffer): Buffer {
  const length: number[] = [];
  for (let n = payload.length; ; n >>>= 7) {
    if (n < 0x80) {
      length.push(n);
      break;
    }
    length.push((n & 0x7f) | 0x80);
  }
  return Buffer.concat([Buffer.from([(field << 3) | 2, ...length]), payload]);
}

/** A google.protobuf.Struct nested `levels` deep: {"a": {"a": … {}}}, built from the inside out. */
function deepStruct(levels: number): Buffer {
  let struct: Buffer = Buffer.alloc(0);
  for (let i = 0; i < levels; i++) {
    const value = lengthDelimited(5, struct); // Value.struct_value
    struct = lengthDelimited(1, Buffer.concat([lengthDelimited(1, Buffer.from('a')), lengthDelimited(2, value)]));
  }
  return struct;
}

/**
 * The reproductions of issue 16 (hostile bodies that became a 500, a -32603 or a lost record),
 * kept as regression cases: each must get a clear client error, and the server stays ready.
 */
describe('hostile input (e2e)', () => {
  let t: TestApp;
  const admin = { 'X-Api-Key': TEST_ADMIN_KEY };

  beforeAll(async () => {
    t = await startTestApp({
      RATE_LIMIT_REGISTRY_PER_MIN: '1000',
      RATE_LIMIT_CONVERSATION_PER_MIN: '1000',
      ALLOW_PRIVATE_NETWORK_TARGETS: 'true',
    });
  });
  afterAll(async () => t?.close());
  afterEach(async () => {
    await t.http().get('/health/ready').expect(200);
  });

  const nested = (levels: number, open = '[', close = ']') => `${open.repeat(levels)}${close.repeat(levels)}`;
  const objects = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;
  const post = (path: string, body: string) =>
    t.http().post(path).set(admin).set('Content-Type', 'application/json').send(body);
  const rpc = (path: string, method: string, params: string, id: unknown = 7) =>
    post(path, `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"method":"${method}","params":${params}}`);

  describe('nesting deeper than JSON_MAX_DEPTH', () => {
    it.each([
      ['/api/conversation', `{"text":"hi","context":${nested(2000)}}`],
      ['/api/agents', `{"id":"x","base_url":"http://example.com","extra":${objects(10_000)}}`],
      ['/api/agents/validate', `{"base_url":"http://example.com","extra":${objects(2000)}}`],
    ])('REST %s → 400 naming the limit', async (path, body) => {
      const res = await post(path, body).expect(400);
      expect(res.body).toMatchObject({ code: 'INVALID_REQUEST', details: { limit: 'JSON_MAX_DEPTH', max: 64 } });
    });

    it('A2A JSON-RPC (nested message metadata) → -32600 with the request id', async () => {
      const params = `{"message":{"kind":"message","messageId":"m1","role":"user","parts":[{"kind":"text","text":"hi"}],"metadata":${objects(2000)}}}`;
      const res = await rpc('/api/agents/orchestrator/v1', 'message/send', params).expect(200);
      expect(res.body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
      expect(res.body.error.message).toContain('JSON_MAX_DEPTH');
    });

    it('task-tree JSON-RPC (tasks.create inputs) → -32600', async () => {
      const res = await rpc('/tasks', 'tasks.create', `{"name":"x","inputs":${nested(3000)}}`).expect(200);
      expect(res.body.error.code).toBe(-32600);
    });

    it('A2A HTTP+JSON → 400 in the version’s error format', async () => {
      const res = await t
        .http()
        .post('/api/agents/orchestrator/json/v1/message:send')
        .set(admin)
        .set('A2A-Version', '1.0')
        .set('Content-Type', 'application/json')
        .send(`{"message":${nested(500)}}`)
        .expect(400);
      expect(JSON.stringify(res.body)).toContain('JSON_MAX_DEPTH');
    });
  });

  describe('gRPC requests nested deeper than JSON_MAX_DEPTH → INVALID_ARGUMENT, never INTERNAL', () => {
    const path = '/lf.a2a.v1.A2AService/SendMessage';

    it('a Struct the decoder can read, but deeper than the limit', async () => {
      const metadata: Record<string, unknown> = {};
      let level = metadata;
      for (let i = 0; i < 500; i++) level = level.a = {};
      const bytes = A2AService.sendMessage.requestSerialize({
        tenant: '',
        message: undefined,
        configuration: undefined,
        metadata,
      });
      const error = await rawUnaryError(t.grpcAddress, path, bytes);
      expect(error?.code).toBe(grpc.status.INVALID_ARGUMENT);
      expect(error?.details).toContain('JSON_MAX_DEPTH');
    });

    it('a Struct so deep that decoding it exhausts the stack', async () => {
      const error = await rawUnaryError(t.grpcAddress, path, lengthDelimited(4, deepStruct(30_000)));
      expect(error?.code).toBe(grpc.status.INVALID_ARGUMENT);
      expect(error?.details).toContain('nested too deeply');
    });

    it('bytes that are not a message of the method’s type', async () => {
      const error = await rawUnaryError(t.grpcAddress, path, Buffer.from([0x22, 0x7f, 0x01]));
      expect(error?.code).toBe(grpc.status.INVALID_ARGUMENT);
    });
  });

  describe('A2A version negotiation on gRPC (the SDK’s own check, behind the gate)', () => {
    const A2AClient = grpc.makeGenericClientConstructor(A2AService, 'A2AService');
    const getTask = (version: string) => {
      const client = new A2AClient(t.grpcAddress, grpc.credentials.createInsecure()) as unknown as grpc.Client & {
        getTask: (
          request: unknown,
          metadata: grpc.Metadata,
          callback: (error: grpc.ServiceError | null) => void,
        ) => void;
      };
      const metadata = new grpc.Metadata();
      metadata.set('x-api-key', TEST_ADMIN_KEY);
      metadata.set('a2a-version', version);
      return new Promise<grpc.ServiceError | null>((resolve) =>
        client.getTask({ tenant: '', id: 'no-such-task', historyLength: undefined }, metadata, (error) => {
          client.close();
          resolve(error);
        }),
      );
    };

    it('refuses a version the hub does not serve with FAILED_PRECONDITION and VERSION_NOT_SUPPORTED', async () => {
      const error = await getTask('0.5');
      expect(error?.code).toBe(grpc.status.FAILED_PRECONDITION);
      expect(error?.details).toContain('0.5');
      expect(error?.metadata.get('grpc-status-details-bin')[0]?.toString('latin1')).toContain('VERSION_NOT_SUPPORTED');
    });

    it.each(['1.0', '1', '1.0.1', '0.3', '0.3.0'])('serves %s (the task is then not found)', async (version) => {
      expect((await getTask(version))?.code).toBe(grpc.status.NOT_FOUND);
    });
  });

  describe('text PostgreSQL cannot store (NUL, unpaired surrogates) → refused naming the field', () => {
    it.each([
      ['tasks/get', '{"id":"a\\u0000b"}', 'params.id'],
      ['tasks/pushNotificationConfig/get', '{"id":"a\\u0000b"}', 'params.id'],
      [
        'message/send',
        '{"message":{"kind":"message","messageId":"m2","role":"user","parts":[{"kind":"text","text":"x\\u0000y"}]}}',
        'params.message.parts[0].text',
      ],
      [
        'message/send',
        '{"message":{"kind":"message","messageId":"m3","role":"user","parts":[{"kind":"text","text":"\\ud800"}]}}',
        'params.message.parts[0].text',
      ],
    ])('A2A %s %s → -32602', async (method, params, field) => {
      const res = await rpc('/api/agents/orchestrator/v1', method, params).expect(200);
      expect(res.body).toMatchObject({ id: 7, error: { code: -32602 } });
      expect(res.body.error.message).toContain(field);
    });

    it.each([
      ['tasks.create', '{"name":"x\\u0000"}', 'params.name'],
      ['tasks.create', '{"name":"x","inputs":{"a":"\\udc00"}}', 'params.inputs.a'],
      ['tasks.create', '{"name":"x","inputs":{"k\\u0000":1}}', 'params.inputs (a member name)'],
    ])('%s %s → -32602', async (method, params, field) => {
      const res = await rpc('/tasks', method, params).expect(200);
      expect(res.body).toMatchObject({ id: 7, error: { code: -32602 } });
      expect(res.body.error.message).toContain(field);
    });

    it('REST: a member named constructor where only the DTO’s fields belong → 400 naming it', async () => {
      const res = await post('/api/conversation', '{"text":"hi","context":{"constructor":{"a":1}}}').expect(400);
      expect(res.body).toMatchObject({
        code: 'VALIDATION_FAILED',
        details: { fields: [{ field: 'context.constructor' }] },
      });
    });

    it('REST → 400 VALIDATION_FAILED with the field', async () => {
      const res = await post('/api/conversation', '{"text":"hi\\u0000"}').expect(400);
      expect(res.body).toMatchObject({
        code: 'VALIDATION_FAILED',
        details: { fields: [{ field: 'body.text', reason: expect.stringContaining('NUL') }] },
      });
    });
  });

  describe('a path parameter that is not valid percent-encoding → 400, never 500', () => {
    it.each([
      '/api/agents/orchestrator/json/v1/tasks/%ZZ',
      '/api/agents/orchestrator/json/v1/tasks/%E0%A4%A',
      '/api/agents/orchestrator/json/v1/tasks/%ED%A0%80:cancel',
      '/api/agents/orchestrator/json/v1/tasks/%/pushNotificationConfigs',
    ])('A2A HTTP+JSON %s → the v1.0 REST error (google.rpc.Status)', async (path) => {
      const res = await t.http().get(path).set(admin).set('A2A-Version', '1.0').expect(400);
      expect(res.body).toMatchObject({
        error: { code: 400, status: 'INVALID_ARGUMENT', message: expect.stringContaining('decode param') },
      });
    });

    it('A2A HTTP+JSON without A2A-Version → the v0.3 REST error (invalid params)', async () => {
      const res = await t.http().get('/api/agents/orchestrator/json/v1/tasks/%ZZ').set(admin).expect(400);
      expect(res.body).toMatchObject({ code: -32602, message: expect.stringContaining('decode param') });
    });
  });

  describe('a JSON-RPC request with an empty body → -32700, never a complaint about its fields', () => {
    it.each(['/api/agents/orchestrator/v1', '/a2a/lucia-orchestrator', '/tasks'])('POST %s', async (path) => {
      const res = await post(path, '').expect(200);
      expect(res.body).toEqual({
        jsonrpc: '2.0',
        id: null,
        error: { code: -32700, message: 'Parse error: the request body is empty' },
      });
    });
  });

  describe('a URL that decodes to a NUL (text PostgreSQL cannot store) → 400 naming the part, never 500', () => {
    it.each([
      ['/api/agents/orchestrator/json/v1/tasks/x%00y', 'path'],
      ['/api/agents/orchestrator/json/v1/tasks/x/pushNotificationConfigs/%00', 'path'],
      ['/api/agents/orchestrator/json/v1/tasks?contextId=%00', 'query'],
      ['/api/agents/x%00y', 'path'],
      ['/internal/orchestration/tasks/x%00y', 'path'],
      ['/internal/agents/%00/resolution', 'path'],
    ])('GET %s', async (path, field) => {
      const res = await t.http().get(path).set(admin).set('A2A-Version', '1.0').expect(400);
      expect(res.body).toMatchObject({ code: 'VALIDATION_FAILED', details: { fields: [{ field }] } });
    });
  });

  describe('MCP requests whose params do not fit the method → the client’s error, never -32603', () => {
    const accept = { Accept: 'application/json, text/event-stream' };
    let session: Record<string, string>;
    /** The JSON-RPC answer, sent as JSON or as one server-sent event. */
    const answer = (text: string) => JSON.parse(/^data: (.*)$/m.exec(text)?.[1] ?? text) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

    beforeAll(async () => {
      const init = await post(
        '/mcp',
        JSON.stringify({
          jsonrpc: '2.0',
          id: 0,
          method: 'initialize',
          params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'hostile', version: '1' } },
        }),
      ).set(accept);
      session = { ...accept, 'Mcp-Session-Id': init.headers['mcp-session-id'], 'MCP-Protocol-Version': '2025-06-18' };
      await post('/mcp', '{"jsonrpc":"2.0","method":"notifications/initialized"}').set(session);
    });

    it.each([
      ['tools/call', '{}', -32602, 'name'],
      ['tools/call', '{"name":"get_task","arguments":null}', -32602, 'arguments'],
      ['logging/setLevel', '{"level":"bogus"}', -32602, 'level'],
      ['resources/read', '{"uri":""}', -32602, 'uri'],
      ['resources/read', '{"uri":"switchboard://tasks/no-such-task"}', -32602, 'no-such-task'],
    ])('%s %s → %d', async (method, params, code, named) => {
      const res = await post('/mcp', `{"jsonrpc":"2.0","id":7,"method":"${method}","params":${params}}`).set(session);
      expect(res.status).toBe(200);
      expect(answer(res.text)).toMatchObject({ id: 7, error: { code, message: expect.stringContaining(named) } });
    });
  });

  describe('a remote card holding text PostgreSQL cannot store → refused as an invalid card, never 500', () => {
    let remote: Server;
    let baseUrl: string;

    beforeAll(async () => {
      // JSON.stringify writes the NUL as \u0000 and the lone surrogate as \ud800: the card parses into both.
      const card = {
        protocolVersion: '0.3.0',
        name: 'Hostile\u0000Agent',
        description: 'x\ud800',
        url: 'http://127.0.0.1/a2a',
        version: '1',
        capabilities: {},
        defaultInputModes: ['text/plain'],
        defaultOutputModes: ['text/plain'],
        skills: [{ id: 's', name: 's', description: 'd', tags: ['t'] }],
      };
      remote = createServer((_req, res) =>
        res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(card)),
      );
      await new Promise<void>((resolve) => remote.listen(0, '127.0.0.1', resolve));
      baseUrl = `http://127.0.0.1:${(remote.address() as AddressInfo).port}`;
    });
    afterAll(() => new Promise<void>((resolve) => remote.close(() => resolve())));

    it('POST /api/agents → 400 VALIDATION_FAILED naming the field', async () => {
      const res = await post('/api/agents', JSON.stringify({ id: 'hostile-card', base_url: baseUrl })).expect(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
      expect(res.body.details.problems).toContainEqual(expect.objectContaining({ path: 'name', severity: 'error' }));
      await t.http().get('/api/agents/hostile-card').set(admin).expect(404);
    });

    it('POST /api/agents/validate reports the card as failed', async () => {
      const res = await post('/api/agents/validate', JSON.stringify({ base_url: baseUrl })).expect(200);
      expect(res.body).toMatchObject({ validation: 'failed' });
      expect(res.body.problems).toContainEqual(expect.objectContaining({ path: 'name', severity: 'error' }));
    });
  });

  describe('deleting a push notification config that was never stored → not found, not a success', () => {
    it('JSON-RPC (v0.3 and v1.0) and HTTP+JSON', async () => {
      const message = {
        kind: 'message',
        messageId: 'push-1',
        role: 'user',
        parts: [{ kind: 'text', text: 'turn on the light' }],
      };
      const sent = await rpc('/api/agents/orchestrator/v1', 'message/send', JSON.stringify({ message }));
      const taskId = sent.body.result.id as string;
      const v03 = await rpc(
        '/api/agents/orchestrator/v1',
        'tasks/pushNotificationConfig/delete',
        JSON.stringify({ id: taskId, pushNotificationConfigId: 'never-stored' }),
      ).expect(200);
      expect(v03.body).toMatchObject({
        id: 7,
        error: { code: -32001, message: expect.stringContaining('never-stored') },
      });
      const v1 = await post(
        '/api/agents/orchestrator/v1',
        JSON.stringify({
          jsonrpc: '2.0',
          id: 8,
          method: 'DeleteTaskPushNotificationConfig',
          params: { taskId, id: 'never-stored' },
        }),
      ).set('A2A-Version', '1.0');
      expect(v1.body).toMatchObject({ id: 8, error: { code: -32001 } });
      await t
        .http()
        .delete(`/api/agents/orchestrator/json/v1/tasks/${taskId}/pushNotificationConfigs/never-stored`)
        .set(admin)
        .set('A2A-Version', '1.0')
        .expect(404);
    });
  });

  describe('a WebSocket upgrade the hub has no endpoint for → an HTTP error, and the server keeps serving', () => {
    it.each([
      ['//[', 400],
      ['/not-a-websocket-endpoint', 404],
    ])('GET %s with Upgrade: websocket → %d', async (target, status) => {
      const { port } = new URL(t.baseUrl);
      const answer = await new Promise<string>((resolve) => {
        let text = '';
        const socket = connect(Number(port), '127.0.0.1', () =>
          socket.write(
            `GET ${target} HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
              'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n',
          ),
        );
        socket.on('data', (chunk) => (text += String(chunk)));
        socket.on('close', () => resolve(text));
        socket.on('error', () => resolve(text));
        setTimeout(() => socket.destroy(), 2000);
      });
      expect(answer.split('\r\n')[0]).toBe(`HTTP/1.1 ${status} ${STATUS_CODES[status]}`);
      // afterEach: /health/ready still answers (the process ended at '//[' before).
    });
  });

  describe('task-tree params', () => {
    it('keeps inputs whose keys are names of Object.prototype members', async () => {
      for (const key of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
        const inputs = `{"${key}":{"a":1}}`;
        const created = await rpc('/tasks', 'tasks.create', `{"name":"x","inputs":${inputs},"schemas":${inputs}}`);
        expect(created.body.error).toBeUndefined();
        const got = await rpc('/tasks', 'tasks.get', JSON.stringify({ task_id: created.body.result.id }));
        expect(got.body.result.inputs).toEqual(JSON.parse(inputs));
        const updated = await rpc(
          '/tasks',
          'tasks.update',
          JSON.stringify({ task_id: created.body.result.id, inputs: { [key]: { b: 2 } } }),
        );
        expect(updated.body.error).toBeUndefined();
        expect(updated.body.result.inputs).toEqual({ [key]: { b: 2 } });
      }
    });

    it.each([
      ['{"status":{"x":{"constructor":{"a":1}}}}', 'status.x.constructor'],
      ['{"limit":{"__proto__":{"a":1}}}', 'limit.__proto__'],
      ['{"offset":1e20}', 'offset'],
      ['{"offset":-1}', 'offset'],
      ['{"limit":1e20}', 'limit'],
      ['{"offset":1.5}', 'offset'],
      ['{"parent_id":"not-a-task-id"}', 'parent_id'],
    ])('tasks.list %s → -32602 naming %s', async (params, field) => {
      const res = await rpc('/tasks', 'tasks.list', params).expect(200);
      expect(res.body).toMatchObject({ id: 7, error: { code: -32602 } });
      expect(res.body.error.message).toContain(field);
    });

    it('gRPC ListTasks with a parent_id that is not a task id → INVALID_ARGUMENT', async () => {
      type Client = grpc.Client & { ListTasks: Unary<{ parent_id: string }, unknown> };
      const client = switchboardClient<Client>('tasks', 'TaskService', t.grpcAddress);
      try {
        const { error } = await call(client.ListTasks, client, { parent_id: 'not-a-task-id' }, admin);
        expect(error?.code).toBe(grpc.status.INVALID_ARGUMENT);
        expect(error?.details).toContain('parent_id');
      } finally {
        client.close();
      }
    });

    it.each(['name', 'priority', 'inputs', 'params', 'schemas', 'dependencies', 'status', 'progress'])(
      'tasks.update clearing %s (a column that always holds a value) → -32602 naming it',
      async (field) => {
        const created = await rpc('/tasks', 'tasks.create', '{"name":"x"}');
        const task_id = created.body.result.id as string;
        const res = await rpc('/tasks', 'tasks.update', JSON.stringify({ task_id, [field]: null })).expect(200);
        expect(res.body).toMatchObject({ id: 7, error: { code: -32602, data: { field } } });
        const cleared = await rpc('/tasks', 'tasks.update', JSON.stringify({ task_id, result: null, error: null }));
        expect(cleared.body.error).toBeUndefined();
      },
    );

    it('tasks.create with an out-of-range priority → -32602', async () => {
      const res = await rpc('/tasks', 'tasks.create', '{"name":"x","priority":1e20}').expect(200);
      expect(res.body.error.code).toBe(-32602);
    });
  });
});
