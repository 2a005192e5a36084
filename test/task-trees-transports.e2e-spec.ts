import * as grpc from '@grpc/grpc-js';
import WebSocket from 'ws';
import { call, switchboardClient } from './support/grpc-clients';
import { startTestApp, TEST_ADMIN_KEY, TestApp } from './support/test-app';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
type Unary = (
  request: object,
  metadata: grpc.Metadata,
  callback: (e: grpc.ServiceError | null, r: Json) => void,
) => void;

interface TaskClient extends grpc.Client {
  CreateTasks: Unary;
  GetTask: Unary;
  ListTasks: Unary;
  ExecuteTask: Unary;
  CancelTask: Unary;
  GetTaskTree: Unary;
  WatchTaskTree(request: object, metadata: grpc.Metadata): grpc.ClientReadableStream<Json>;
}

function taskClient(address: string): TaskClient {
  return switchboardClient<TaskClient>('tasks', 'TaskService', address);
}

describe('task trees over gRPC (switchboard.v1.TaskService) and WebSocket (e2e)', () => {
  let t: TestApp;
  let client: TaskClient;
  const auth = { 'x-api-key': TEST_ADMIN_KEY };

  beforeAll(async () => {
    t = await startTestApp();
    client = taskClient(t.grpcAddress);
  });

  afterAll(async () => {
    client?.close();
    await t?.close();
  });

  async function rpc(method: string, params: unknown): Promise<Json> {
    const res = await t
      .http()
      .post('/tasks')
      .set('X-Api-Key', TEST_ADMIN_KEY)
      .send({ jsonrpc: '2.0', id: 1, method, params });
    return res.body.result as Json;
  }

  describe('gRPC', () => {
    it('creates, executes, watches and reads a tree', async () => {
      const created = await call(
        client.CreateTasks,
        client,
        {
          tasks: [
            { name: 'g-root', schemas_json: '{"method":"aggregate"}' },
            { name: 'g-a', parent_id: 'g-root', inputs_json: '{"x":1}' },
            { name: 'g-b', parent_id: 'g-root', dependencies: [{ name: 'g-a' }], priority: 0 },
          ],
        },
        auth,
      );
      expect(created.error).toBeUndefined();
      const rootId = created.response!.id as string;
      expect(created.response).toMatchObject({ status: 'pending' });
      expect((created.response!.tasks as Json[]).map((task) => task.name)).toEqual(['g-root', 'g-a', 'g-b']);

      const task = await call(client.GetTask, client, { task_id: created.response!.tasks[2].id }, auth);
      expect(task.response).toMatchObject({ name: 'g-b', priority: 0, status: 'pending', parent_id: rootId });
      expect(task.response!.dependencies).toEqual([
        expect.objectContaining({ id: created.response!.tasks[1].id, required: true }),
      ]);

      const metadata = new grpc.Metadata();
      metadata.set('x-api-key', TEST_ADMIN_KEY);
      const stream = client.WatchTaskTree({ task_id: rootId }, metadata);
      const events: Json[] = [];
      const ended = new Promise<void>((resolve, reject) => {
        stream.on('data', (event: Json) => events.push(event));
        stream.on('end', resolve);
        stream.on('error', reject);
      });
      await new Promise((resolve) => setTimeout(resolve, 200)); // the watch subscribes asynchronously
      const started = await call(client.ExecuteTask, client, { task_id: rootId }, auth);
      expect(started.response).toMatchObject({ root_task_id: rootId, status: 'started' });
      await ended;
      expect(events.at(-1)).toMatchObject({ event: 'final', status: 'completed', final: true, protocol: 'a2a' });
      expect(events.filter((event) => event.event === 'task_completed')).toHaveLength(3);

      const tree = await call(client.GetTaskTree, client, { task_id: rootId }, auth);
      expect(tree.response!.task).toMatchObject({ name: 'g-root', status: 'completed', has_children: true });
      const b = (tree.response!.children as Json[]).find((node) => node.task.name === 'g-b')!;
      expect(JSON.parse(b.task.result_json)).toEqual({ x: 1 });

      const list = await call(client.ListTasks, client, { root_only: true, limit: 5 }, auth);
      expect(list.response).toMatchObject({ limit: 5, offset: 0 });
      expect((list.response!.tasks as Json[]).every((t) => t.parent_id === '')).toBe(true);
    });

    it('maps errors to gRPC statuses', async () => {
      const cycle = await call(
        client.CreateTasks,
        client,
        {
          tasks: [
            { name: 'r' },
            { name: 'a', parent_id: 'r', dependencies: [{ name: 'b' }] },
            { name: 'b', parent_id: 'r', dependencies: [{ name: 'a' }] },
          ],
        },
        auth,
      );
      expect(cycle.error?.code).toBe(grpc.status.INVALID_ARGUMENT);
      expect(cycle.error?.details).toMatch(/Circular dependency detected: a -> b -> a/);
      const badJson = await call(client.CreateTasks, client, { tasks: [{ name: 'j', inputs_json: '{nope' }] }, auth);
      expect(badJson.error?.code).toBe(grpc.status.INVALID_ARGUMENT);
      const missing = await call(client.GetTask, client, { task_id: '6c0d1b57-6a2e-4c5e-9b5e-1f6f2a0d8c11' }, auth);
      expect(missing.error?.code).toBe(grpc.status.NOT_FOUND);
      const anonymous = await call(client.ListTasks, client, {});
      expect(anonymous.error?.code).toBe(grpc.status.UNAUTHENTICATED);
      const finished = await rpc('tasks.create', [{ name: 'done-already' }]);
      const cancel = await call(client.CancelTask, client, { task_id: finished.id }, auth);
      expect(cancel.response).toMatchObject({ task_id: finished.id, status: 'cancelled', cancelled_count: 1 });
    });
  });

  describe('WebSocket /tasks/ws', () => {
    const url = () => `${t.baseUrl.replace('http', 'ws')}/tasks/ws`;

    function open(headers: Record<string, string> = { 'X-Api-Key': TEST_ADMIN_KEY }, query = ''): Promise<WebSocket> {
      return new Promise((resolve, reject) => {
        const socket = new WebSocket(url() + query, { headers });
        socket.once('open', () => resolve(socket));
        socket.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
        socket.once('error', reject);
      });
    }

    function collect(socket: WebSocket, until: (message: Json) => boolean): Promise<Json[]> {
      const messages: Json[] = [];
      return new Promise((resolve) => {
        socket.on('message', (raw) => {
          const message = JSON.parse(Buffer.isBuffer(raw) ? raw.toString('utf8') : '{}') as Json;
          messages.push(message);
          if (until(message)) resolve(messages);
        });
      });
    }

    it('refuses an upgrade without a valid key', async () => {
      await expect(open({})).rejects.toThrow('HTTP 401');
      await expect(open({ 'X-Api-Key': 'sbk_AAAAAAAA_wrongwrongwrongwrongwrongwrongwrong' })).rejects.toThrow(
        'HTTP 401',
      );
    });

    it('streams a tree’s events to a subscriber, ending with the final event', async () => {
      const created = await rpc('tasks.create', [
        { name: 'w-root' },
        { name: 'w-child', parent_id: 'w-root', schemas: { method: 'sleep' }, inputs: { ms: 150 } },
      ]);
      const socket = await open();
      try {
        const subscribed = collect(socket, (m) => m.event === 'subscribed');
        socket.send(JSON.stringify({ action: 'subscribe', root_task_id: created.id }));
        expect((await subscribed)[0]).toEqual({ event: 'subscribed', data: { root_task_id: created.id } });
        const messages = collect(socket, (m) => m.event === 'final');
        await rpc('tasks.execute', { task_id: created.id });
        const events = await messages;
        expect(events.map((e) => e.event)).toEqual(
          expect.arrayContaining(['task_status_update', 'task_completed', 'final']),
        );
        expect(events.at(-1)!.data).toMatchObject({ root_task_id: created.id, status: 'completed', final: true });
      } finally {
        socket.close();
      }
    });

    it('answers bad messages and unknown tasks with errors, and keeps the connection', async () => {
      const socket = await open(undefined, '?root_task_id=0b3c8f2e-1d2a-4c3b-9a8e-7f6e5d4c3b2a');
      try {
        const first = await collect(socket, () => true);
        expect(first[0]).toMatchObject({ event: 'error', data: { code: -32001 } });
        const next = collect(socket, () => true);
        socket.send('{not json');
        expect((await next)[0]).toMatchObject({ event: 'error', data: { code: -32700 } });
        const third = collect(socket, () => true);
        socket.send(JSON.stringify({ action: 'dance' }));
        expect((await third)[0]).toMatchObject({ event: 'error', data: { code: -32600 } });
        // Frames are read under the JSON limits of request bodies.
        const fourth = collect(socket, () => true);
        socket.send(`{"action":"subscribe","extra":${'['.repeat(100)}${']'.repeat(100)}}`);
        expect((await fourth)[0]).toMatchObject({
          event: 'error',
          data: { code: -32600, message: expect.stringContaining('JSON_MAX_DEPTH') },
        });
        const fifth = collect(socket, () => true);
        socket.send('{"action":"subscribe","root_task_id":"a\\u0000b"}');
        expect((await fifth)[0]).toMatchObject({ event: 'error', data: { code: -32602 } });
        expect(socket.readyState).toBe(WebSocket.OPEN);
      } finally {
        socket.close();
      }
    });
  });
});

describe('the workflow agent: task trees over A2A (e2e)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t?.close());

  const send = (parts: object[], id = 1) =>
    t
      .http()
      .post('/api/agents/workflow/v1')
      .set('X-Api-Key', TEST_ADMIN_KEY)
      .send({
        jsonrpc: '2.0',
        id,
        method: 'message/send',
        params: { message: { kind: 'message', role: 'user', messageId: `m-${id}`, parts } },
      })
      .expect(200);

  it('runs the tasks of a data part and answers with the execution as an A2A task', async () => {
    const res = await send([
      {
        kind: 'data',
        data: {
          tasks: [
            { name: 'wf-root', schemas: { method: 'aggregate' } },
            { name: 'wf-a', parent_id: 'wf-root', inputs: { n: 1 } },
          ],
        },
      },
    ]);
    const task = res.body.result;
    expect(task).toMatchObject({
      kind: 'task',
      status: { state: 'completed' },
      metadata: { protocol: 'a2a', user_id: 'admin' },
    });
    const rootId = task.metadata.root_task_id as string;
    expect(task.contextId).toBe(rootId);
    expect(task.artifacts[0].parts[0]).toMatchObject({
      kind: 'data',
      data: { root_task_id: rootId, status: 'completed', task_count: 2 },
    });
    const tree = await t
      .http()
      .post('/tasks')
      .set('X-Api-Key', TEST_ADMIN_KEY)
      .send({ jsonrpc: '2.0', id: 2, method: 'tasks.get', params: { task_id: rootId } });
    expect(tree.body.result).toMatchObject({ name: 'wf-root', status: 'completed' });
  });

  it('reports a failed tree as a failed A2A task with the error as its message', async () => {
    const res = await send(
      [
        {
          kind: 'data',
          data: [{ name: 'wf-fail', schemas: { method: 'sleep' }, inputs: { ms: 1, fail: true, message: 'boom' } }],
        },
      ],
      3,
    );
    expect(res.body.result.status.state).toBe('failed');
    expect(res.body.result.status.message.parts[0].text).toBe('boom');
  });

  it('answers a message without usable tasks with an explanation, not a task', async () => {
    const res = await send([{ kind: 'text', text: 'please run something' }], 4);
    expect(res.body.result).toMatchObject({ kind: 'message', role: 'agent' });
    expect(res.body.result.parts[0].text).toMatch(/data part/);
    const cycle = await send([{ kind: 'data', data: [{ name: 'a', dependencies: ['a'] }] }], 5);
    expect(cycle.body.result.parts[0].text).toMatch(/Circular dependency detected: a -> a/);
  });

  it('is listed with its skill but is not a routing target of the orchestrator', async () => {
    const card = await t.http().get('/api/agents/workflow/.well-known/agent-card.json').expect(200);
    expect(card.body.skills[0]).toMatchObject({ id: 'tasks.execute' });
    const res = await t
      .http()
      .post('/api/agents/orchestrator/v1')
      .set('X-Api-Key', TEST_ADMIN_KEY)
      .send({
        jsonrpc: '2.0',
        id: 6,
        method: 'message/send',
        params: {
          message: {
            kind: 'message',
            role: 'user',
            messageId: 'o-1',
            parts: [{ kind: 'text', text: 'execute the workflow tasks' }],
          },
        },
      })
      .expect(200);
    // Nothing but the workflow agent knows tasks, and it takes no text: no agent to name.
    expect(res.body.result).toMatchObject({ kind: 'task', status: { state: 'input-required' } });
    expect(res.body.result.status.message.parts[0].text).toBe(
      "I'm not sure who should handle that. Could you say it another way?",
    );
  });
});
