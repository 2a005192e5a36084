import { createServer, IncomingMessage, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { TaskPushNotifier } from '../src/task-host/push/task-push.notifier';
import { startTestApp, TEST_ADMIN_KEY, TestApp } from './support/test-app';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('task trees: JSON-RPC API at /tasks, execution engine, streaming, push (e2e)', () => {
  let t: TestApp;
  let userKey: string;
  let otherKey: string;
  let readerKey: string;
  let nextId = 1;

  beforeAll(async () => {
    t = await startTestApp({ ALLOW_PRIVATE_NETWORK_TARGETS: 'true', TASK_CONCURRENCY: '4' });
    const key = async (name: string, owner: string, scopes: string[]) =>
      (await t.http().post('/api/keys').set('X-Api-Key', TEST_ADMIN_KEY).send({ name, owner, scopes }).expect(201)).body
        .key as string;
    userKey = await key('planner', 'alice', ['tasks']);
    otherKey = await key('intruder', 'mallory', ['tasks']);
    readerKey = await key('reader', 'alice', ['agents:read']);
  });

  afterAll(async () => {
    await t?.close();
  });

  async function rpc(method: string, params?: unknown, apiKey = userKey, path = '/tasks'): Promise<Json> {
    const id = nextId++;
    const res = await t
      .http()
      .post(path)
      .set('X-Api-Key', apiKey)
      .send({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) });
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toMatchObject({ jsonrpc: '2.0', id });
    return res.body as Json;
  }

  async function ok(method: string, params?: unknown, apiKey = userKey): Promise<Json> {
    const body = await rpc(method, params, apiKey);
    if (body.error) throw new Error(`${method} failed: ${JSON.stringify(body.error)}`);
    return body.result as Json;
  }

  async function create(tasks: Json[]): Promise<{ rootId: string; ids: Record<string, string> }> {
    const result = await ok('tasks.create', tasks);
    return {
      rootId: result.id,
      ids: Object.fromEntries((result.tasks as Json[]).map((task) => [task.name, task.id])),
    };
  }

  async function tasksOf(rootId: string): Promise<Record<string, Json>> {
    const flat: Json[] = [];
    const walk = (node: Json) => {
      flat.push(node.task);
      (node.children as Json[]).forEach(walk);
    };
    walk(await ok('tasks.tree', { task_id: rootId }));
    return Object.fromEntries(flat.map((task) => [task.name, task]));
  }

  async function waitFor(rootId: string, done: (tasks: Record<string, Json>) => boolean, ms = 15_000) {
    const deadline = Date.now() + ms;
    for (;;) {
      const tasks = await tasksOf(rootId);
      if (done(tasks)) return tasks;
      if (Date.now() > deadline) throw new Error(`Tree did not settle: ${JSON.stringify(tasks, null, 1)}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  const finished = (tasks: Record<string, Json>) =>
    Object.values(tasks).every((task) => ['completed', 'failed', 'cancelled'].includes(task.status));

  async function run(tasks: Json[]): Promise<Record<string, Json>> {
    const { rootId } = await create(tasks);
    const started = await ok('tasks.execute', { task_id: rootId });
    expect(started).toMatchObject({ root_task_id: rootId, status: 'started' });
    return waitFor(rootId, finished);
  }

  describe('creating and reading', () => {
    it('creates a tree whose parents and dependencies are given by name, and reads it back', async () => {
      const result = await ok('tasks.create', {
        tasks: [
          { name: 'report', schemas: { method: 'aggregate' }, priority: 1 },
          { name: 'fetch', parent_id: 'report', inputs: { url: 'x' } },
          { name: 'parse', parent_id: 'report', dependencies: [{ name: 'fetch' }, { id: 'fetch', required: false }] },
        ],
      });
      expect(result).toMatchObject({ status: 'pending' });
      const ids = Object.fromEntries((result.tasks as Json[]).map((task) => [task.name, task.id]));
      expect(result.id).toBe(ids.report);

      const parse = await ok('tasks.get', { task_id: ids.parse });
      expect(parse).toMatchObject({
        id: ids.parse,
        name: 'parse',
        user_id: 'alice',
        parent_id: ids.report,
        priority: 2,
        status: 'pending',
        progress: 0,
        result: null,
        error: null,
        dependencies: [
          { id: ids.fetch, required: true },
          { id: ids.fetch, required: false },
        ],
      });
      expect(new Date(parse.created_at).getTime()).toBeGreaterThan(0);

      const tree = await ok('tasks.tree', { task_id: ids.parse });
      expect(tree.task).toMatchObject({ id: ids.report, has_children: true });
      expect((tree.children as Json[]).map((c) => c.task.name).sort()).toEqual(['fetch', 'parse']);
      expect(tree.children[0].children).toEqual([]);

      const children = await ok('tasks.children', { parent_id: ids.report });
      expect((children.children as Json[]).map((c) => c.name).sort()).toEqual(['fetch', 'parse']);
    });

    it('accepts a single task as params and apflow bare-string dependencies', async () => {
      const single = await ok('tasks.create', { name: 'solo', inputs: { a: 1 } });
      expect(single).toMatchObject({ status: 'pending', tasks: [{ name: 'solo', parent_id: null }] });
      const { ids } = await create([
        { name: 'r' },
        { name: 'x', parent_id: 'r' },
        { name: 'y', parent_id: 'r', dependencies: ['x'] },
      ]);
      expect((await ok('tasks.get', { id: ids.y })).dependencies).toEqual([{ id: ids.x, required: true }]);
    });

    it('lists the caller’s tasks with total, limit and offset, filtered', async () => {
      await create([{ name: 'listed-root' }, { name: 'listed-child', parent_id: 'listed-root' }]);
      const all = await ok('tasks.list', {});
      expect(all).toMatchObject({ limit: 100, offset: 0 });
      expect(all.total).toBeGreaterThanOrEqual(2);
      expect((all.tasks as Json[]).every((task) => task.user_id === 'alice')).toBe(true);
      const page = await ok('tasks.list', { limit: 1, offset: 1 });
      expect(page).toMatchObject({ limit: 1, offset: 1, total: all.total });
      expect(page.tasks).toHaveLength(1);
      const roots = await ok('tasks.list', { root_only: true });
      expect((roots.tasks as Json[]).every((task) => task.parent_id === null)).toBe(true);
      expect(roots.total).toBeLessThan(all.total);
      const pending = await ok('tasks.list', { status: 'pending', limit: 1000 });
      expect((pending.tasks as Json[]).every((task) => task.status === 'pending')).toBe(true);

      const tooMany = await rpc('tasks.list', { limit: 1001 });
      expect(tooMany.error).toMatchObject({ code: -32602, data: { field: 'limit' } });
      const mine = await ok('tasks.list', {}, otherKey);
      expect((mine.tasks as Json[]).some((task) => task.user_id === 'alice')).toBe(false);
      const spying = await rpc('tasks.list', { user_id: 'alice' }, otherKey);
      expect(spying.error).toMatchObject({ code: -32004 });
      const asAdmin = await ok('tasks.list', { user_id: 'alice' }, TEST_ADMIN_KEY);
      expect(asAdmin.total).toBe(all.total);
    });
  });

  describe('validation and errors', () => {
    it.each([
      ['a task without a name', [{ inputs: {} }], -32602, 'tasks[0].name'],
      ['a name of the wrong type', [{ name: 42 }], -32602, 'tasks[0].name'],
      ['a priority out of range', [{ name: 'p', priority: 7 }], -32602, 'tasks[0].priority'],
      ['an unknown parent', [{ name: 'a', parent_id: 'nobody' }], -32602, 'tasks[0].parent_id'],
      [
        'an unknown dependency',
        [{ name: 'a' }, { name: 'b', parent_id: 'a', dependencies: ['ghost'] }],
        -32602,
        'tasks[1].dependencies[0]',
      ],
      ['two roots', [{ name: 'a' }, { name: 'b' }], -32602, 'tasks'],
      ['a name used twice', [{ name: 'a' }, { name: 'a', parent_id: 'a' }], -32602, 'tasks[1].name'],
      ['an empty list', [], -32602, 'tasks'],
      ['an unknown executor', [{ name: 'a', schemas: { method: 'teleport' } }], -32003, 'tasks[0].schemas.method'],
    ])('rejects %s', async (_, params, code, field) => {
      const body = await rpc('tasks.create', params);
      expect(body.error).toMatchObject({ code, data: { field } });
      expect(body.error.code).not.toBe(-32603);
    });

    it('names the cycle of circular dependencies', async () => {
      const body = await rpc('tasks.create', [
        { name: 'root' },
        { name: 'a', parent_id: 'root', dependencies: ['b'] },
        { name: 'b', parent_id: 'root', dependencies: ['a'] },
      ]);
      expect(body.error).toMatchObject({ code: -32002, message: 'Circular dependency detected: a -> b -> a' });
    });

    it('rejects a child that depends on its own parent (the parent runs after it)', async () => {
      const body = await rpc('tasks.create', [{ name: 'p' }, { name: 'c', parent_id: 'p', dependencies: ['p'] }]);
      expect(body.error).toMatchObject({ code: -32002 });
      expect(body.error.message).toMatch(/c -> p -> c|p -> c -> p/);
    });

    it('answers protocol mistakes with the JSON-RPC codes, never a 500', async () => {
      const malformed = await t
        .http()
        .post('/tasks')
        .set('X-Api-Key', userKey)
        .set('Content-Type', 'application/json')
        .send('{"jsonrpc":');
      expect(malformed.status).toBe(200);
      expect(malformed.body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
      const notRpc = await t
        .http()
        .post('/tasks')
        .set('X-Api-Key', userKey)
        .send({ method: 'tasks.get', id: 3 })
        .expect(200);
      expect(notRpc.body).toMatchObject({ id: 3, error: { code: -32600 } });
      expect((await rpc('tasks.fly', {})).error).toMatchObject({ code: -32601 });
      expect((await rpc('tasks.get', { task_id: 12 })).error).toMatchObject({
        code: -32602,
        data: { field: 'task_id' },
      });
      expect((await rpc('tasks.get', ['not', 'an', 'object'])).error).toMatchObject({ code: -32602 });
      expect((await rpc('tasks.get', { task_id: 'no-such-task' })).error).toMatchObject({ code: -32001 });
      expect((await rpc('tasks.get', { task_id: '2b5fb2d5-7e0c-4a3d-9b0a-5d0c1b1e8a11' })).error).toMatchObject({
        code: -32001,
        message: expect.stringMatching(/^Task not found/),
      });
    });

    it('answers a batch with one reply per call', async () => {
      const res = await t
        .http()
        .post('/tasks')
        .set('X-Api-Key', userKey)
        .send([
          { jsonrpc: '2.0', id: 'a', method: 'tasks.list', params: { limit: 1 } },
          { jsonrpc: '2.0', id: 'b', method: 'tasks.nope' },
          { jsonrpc: '2.0', method: 'tasks.list' },
        ])
        .expect(200);
      expect(res.body).toHaveLength(2);
      expect(res.body[0]).toMatchObject({ id: 'a', result: { limit: 1 } });
      expect(res.body[1]).toMatchObject({ id: 'b', error: { code: -32601 } });
    });

    it('needs a key with the tasks scope, and hides other owners’ tasks', async () => {
      const anonymous = await t.http().post('/tasks').send({ jsonrpc: '2.0', id: 1, method: 'tasks.list' }).expect(401);
      expect(anonymous.body).toMatchObject({ id: 1, error: { code: -32004 } });
      const reader = await t
        .http()
        .post('/tasks')
        .set('X-Api-Key', readerKey)
        .send({ jsonrpc: '2.0', id: 2, method: 'tasks.list' })
        .expect(403);
      expect(reader.body).toMatchObject({ id: 2, error: { code: -32004 } });
      const { rootId } = await create([{ name: 'private' }]);
      expect((await rpc('tasks.get', { task_id: rootId }, otherKey)).error).toMatchObject({ code: -32001 });
      expect((await rpc('tasks.delete', { task_id: rootId }, otherKey)).error).toMatchObject({ code: -32001 });
      expect((await rpc('tasks.execute', { task_id: rootId }, otherKey)).error).toMatchObject({ code: -32001 });
      expect(await ok('tasks.get', { task_id: rootId }, TEST_ADMIN_KEY)).toMatchObject({ user_id: 'alice' });
    });
  });

  describe('updating, deleting, copying', () => {
    it('updates fields, but never id, parent_id or user_id, and checks new dependencies', async () => {
      const { ids } = await create([
        { name: 'u-root' },
        { name: 'u-a', parent_id: 'u-root' },
        { name: 'u-b', parent_id: 'u-root' },
      ]);
      const updated = await ok('tasks.update', { task_id: ids['u-a'], name: 'u-a2', inputs: { n: 1 }, priority: 0 });
      expect(updated).toMatchObject({ name: 'u-a2', inputs: { n: 1 }, priority: 0 });
      const nested = await ok('tasks.update', { task_id: ids['u-a'], updates: { params: { p: true } } });
      expect(nested.params).toEqual({ p: true });

      for (const field of ['parent_id', 'user_id']) {
        const body = await rpc('tasks.update', { task_id: ids['u-a'], [field]: ids['u-b'] });
        expect(body.error).toMatchObject({ code: -32602, data: { field, reason: 'cannot be changed' } });
      }
      expect((await rpc('tasks.update', { task_id: ids['u-a'], updates: { id: ids['u-b'] } })).error).toMatchObject({
        code: -32602,
        data: { field: 'id' },
      });
      expect((await rpc('tasks.update', { task_id: ids['u-a'], priority: 'high' })).error).toMatchObject({
        code: -32602,
      });

      const withDependency = await ok('tasks.update', { task_id: ids['u-b'], dependencies: [{ id: ids['u-a'] }] });
      expect(withDependency.dependencies).toEqual([{ id: ids['u-a'], required: true }]);
      const loop = await rpc('tasks.update', { task_id: ids['u-a'], dependencies: ['u-b'] });
      expect(loop.error).toMatchObject({ code: -32002, message: 'Circular dependency detected: u-a2 -> u-b -> u-a2' });
      expect((await rpc('tasks.update', { task_id: ids['u-a'], schemas: { method: 'nope' } })).error).toMatchObject({
        code: -32003,
      });
      const stale = await rpc('tasks.update', { task_id: ids['u-a'], name: 'x', version: 1 });
      expect(stale.error).toMatchObject({ code: -32049, data: { field: 'version' } });
    });

    it('deletes only pending tasks without children or dependents, unless asked to cascade', async () => {
      const { rootId, ids } = await create([
        { name: 'd-root' },
        { name: 'd-a', parent_id: 'd-root' },
        { name: 'd-b', parent_id: 'd-root', dependencies: ['d-a'] },
      ]);
      expect((await rpc('tasks.delete', { task_id: rootId })).error).toMatchObject({
        code: -32049,
        data: { field: 'cascade' },
      });
      const dependedOn = await rpc('tasks.delete', { task_id: ids['d-a'] });
      expect(dependedOn.error).toMatchObject({ code: -32049 });
      expect(dependedOn.error.message).toMatch(/dependency of "d-b"/);
      expect(await ok('tasks.delete', { task_id: ids['d-b'] })).toMatchObject({ success: true, deleted_count: 1 });
      expect(await ok('tasks.delete', { task_id: rootId, cascade: true })).toMatchObject({
        success: true,
        deleted_count: 2,
      });
      expect((await rpc('tasks.get', { task_id: ids['d-a'] })).error).toMatchObject({ code: -32001 });

      const done = await run([{ name: 'finished-one' }]);
      const notPending = await rpc('tasks.delete', { task_id: done['finished-one'].id });
      expect(notPending.error).toMatchObject({ code: -32049, message: expect.stringMatching(/Only pending tasks/) });
      const frozen = await rpc('tasks.update', { task_id: done['finished-one'].id, dependencies: [] });
      expect(frozen.error).toMatchObject({ code: -32049, data: { field: 'dependencies' } });
      expect(await ok('tasks.update', { task_id: done['finished-one'].id, inputs: { again: true } })).toMatchObject({
        inputs: { again: true },
      });
    });

    it('copies a task, or its subtree, as new pending tasks with dependencies pointing at the copies', async () => {
      const tasks = await run([
        { name: 'c-root', schemas: { method: 'aggregate' } },
        { name: 'c-a', parent_id: 'c-root', inputs: { v: 1 } },
        { name: 'c-b', parent_id: 'c-root', dependencies: ['c-a'], schemas: { method: 'noop' } },
      ]);
      const copied = await ok('tasks.copy', { task_id: tasks['c-root'].id, copy_children: true });
      expect(copied).toMatchObject({ original_task_id: tasks['c-root'].id, status: 'pending' });
      const copy = await tasksOf(copied.copied_task_id);
      expect(Object.keys(copy).sort()).toEqual(['c-a', 'c-b', 'c-root']);
      for (const task of Object.values(copy)) {
        expect(task).toMatchObject({ status: 'pending', result: null, error: null, progress: 0 });
        expect(Object.values(tasks).map((original) => original.id)).not.toContain(task.id);
      }
      expect(copy['c-a'].inputs).toEqual({ v: 1 });
      expect(copy['c-b'].dependencies).toEqual([{ id: copy['c-a'].id, required: true }]);
      expect(copy['c-b'].schemas).toEqual({ method: 'noop' });

      const alone = await ok('tasks.clone', { task_id: tasks['c-a'].id });
      const single = await ok('tasks.get', { task_id: alone.copied_task_id });
      expect(single).toMatchObject({ name: 'c-a', parent_id: tasks['c-root'].id, status: 'pending' });
    });
  });

  describe('execution', () => {
    it('runs children before their parent and passes dependency results into inputs', async () => {
      const tasks = await run([
        { name: 'sum', schemas: { method: 'aggregate' } },
        { name: 'first', parent_id: 'sum', inputs: { a: 1 } },
        { name: 'second', parent_id: 'sum', dependencies: ['first'], inputs: { b: 2 } },
      ]);
      expect(tasks.second).toMatchObject({ status: 'completed', result: { a: 1, b: 2 }, progress: 1 });
      expect(new Date(tasks.second.started_at) >= new Date(tasks.first.completed_at)).toBe(true);
      expect(new Date(tasks.sum.started_at) >= new Date(tasks.second.completed_at)).toBe(true);
      expect(tasks.sum.result).toMatchObject({ count: 2, results: { [tasks.first.id]: { a: 1 } } });
    });

    it('runs sibling groups in priority order (0 first), each group in parallel', async () => {
      const tasks = await run([
        { name: 'p-root' },
        { name: 'low', parent_id: 'p-root', priority: 3, schemas: { method: 'sleep' }, inputs: { ms: 100 } },
        { name: 'urgent-1', parent_id: 'p-root', priority: 0, schemas: { method: 'sleep' }, inputs: { ms: 150 } },
        { name: 'urgent-2', parent_id: 'p-root', priority: 0, schemas: { method: 'sleep' }, inputs: { ms: 150 } },
        { name: 'normal', parent_id: 'p-root', priority: 2, schemas: { method: 'sleep' }, inputs: { ms: 100 } },
      ]);
      const at = (name: string, field: 'started_at' | 'completed_at') => new Date(tasks[name][field]).getTime();
      expect(Object.values(tasks).every((task) => task.status === 'completed')).toBe(true);
      // Both urgent tasks ran together: each started before the other finished.
      expect(at('urgent-1', 'started_at')).toBeLessThan(at('urgent-2', 'completed_at'));
      expect(at('urgent-2', 'started_at')).toBeLessThan(at('urgent-1', 'completed_at'));
      expect(at('normal', 'started_at')).toBeGreaterThanOrEqual(
        Math.max(at('urgent-1', 'completed_at'), at('urgent-2', 'completed_at')),
      );
      expect(at('low', 'started_at')).toBeGreaterThanOrEqual(at('normal', 'completed_at'));
    });

    it('fails dependents of a failed required dependency, but not of an optional one', async () => {
      const tasks = await run([
        { name: 'f-root' },
        {
          name: 'flaky',
          parent_id: 'f-root',
          schemas: { method: 'sleep' },
          inputs: { ms: 10, fail: true, message: 'disk full' },
        },
        { name: 'needs-it', parent_id: 'f-root', dependencies: [{ name: 'flaky', required: true }] },
        {
          name: 'tolerates-it',
          parent_id: 'f-root',
          dependencies: [{ name: 'flaky', required: false }],
          inputs: { ok: true },
        },
      ]);
      expect(tasks.flaky).toMatchObject({ status: 'failed', error: 'disk full' });
      expect(tasks['needs-it'].status).toBe('failed');
      expect(tasks['needs-it'].error).toMatch(/Required dependency "flaky" .* failed/);
      expect(tasks['needs-it'].started_at).toBeNull();
      expect(tasks['tolerates-it']).toMatchObject({ status: 'completed', result: { ok: true } });
      expect(tasks['f-root'].status).toBe('completed');
    });

    it('re-executes failed tasks and keeps completed results', async () => {
      const first = await run([
        { name: 'r-root' },
        { name: 'steady', parent_id: 'r-root', inputs: { s: 1 } },
        { name: 'shaky', parent_id: 'r-root', schemas: { method: 'sleep' }, inputs: { ms: 1, fail: true } },
        { name: 'after', parent_id: 'r-root', dependencies: ['shaky'] },
      ]);
      expect(first.shaky.status).toBe('failed');
      expect(first.after.status).toBe('failed');
      await ok('tasks.update', { task_id: first.shaky.id, inputs: { ms: 1 } });
      await ok('tasks.execute', { task_id: first['r-root'].id });
      const second = await waitFor(first['r-root'].id, (tasks) => finished(tasks) && tasks.after.status !== 'pending');
      expect(second.shaky).toMatchObject({ status: 'completed', error: null });
      expect(second.after.status).toBe('completed');
      expect(second.steady.completed_at).toBe(first.steady.completed_at);
    });

    it('refuses to execute a tree that is already executing', async () => {
      // Long enough to still run however slow the machine is; the cancel ends it.
      const { rootId } = await create([{ name: 'busy', schemas: { method: 'sleep' }, inputs: { ms: 60_000 } }]);
      await ok('tasks.execute', { task_id: rootId });
      const again = await rpc('tasks.execute', { task_id: rootId });
      expect(again.error).toMatchObject({ code: -32049 });
      expect((await rpc('tasks.update', { task_id: rootId, name: 'renamed' })).error).toMatchObject({ code: -32049 });
      await ok('tasks.cancel', { task_id: rootId });
    });

    it('cancels running work cooperatively and marks pending descendants cancelled', async () => {
      const { rootId, ids } = await create([
        { name: 'x-root' },
        { name: 'long', parent_id: 'x-root', schemas: { method: 'sleep' }, inputs: { seconds: 30 } },
        { name: 'later', parent_id: 'x-root', dependencies: ['long'] },
      ]);
      await ok('tasks.execute', { task_id: rootId });
      await waitFor(rootId, (tasks) => tasks.long.status === 'in_progress');
      const startedCancel = Date.now();
      expect(await ok('tasks.cancel', { task_id: rootId })).toMatchObject({ task_id: rootId, status: 'cancelled' });
      const tasks = await waitFor(rootId, finished, 5_000);
      expect(Date.now() - startedCancel).toBeLessThan(5_000);
      expect(tasks.long.status).toBe('cancelled');
      expect(tasks.later.status).toBe('cancelled');
      expect(tasks['x-root'].status).toBe('cancelled');
      expect((await rpc('tasks.cancel', { task_id: ids.later })).error).toMatchObject({ code: -32049 });
    });

    it('runs http.request through the SSRF guard and a2a.send to a hosted agent', async () => {
      const server = await listen((req, body, res) => {
        res.setHeader('Content-Type', 'application/json');
        res.end(JSON.stringify({ method: req.method, got: body ? JSON.parse(body) : null }));
      });
      try {
        const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
        const tasks = await run([
          { name: 'call', schemas: { method: 'http.request' }, inputs: { url, method: 'POST', body: { q: 1 } } },
          {
            name: 'ask',
            parent_id: 'call',
            schemas: { method: 'a2a.send' },
            inputs: { text: 'show my shopping cart' },
          },
          {
            name: 'bad-url',
            parent_id: 'call',
            schemas: { method: 'http.request' },
            inputs: { url: 'ftp://example.com/' },
          },
        ]);
        expect(tasks.call).toMatchObject({
          status: 'completed',
          result: { status: 200, body: { method: 'POST', got: { q: 1 } } },
        });
        expect(tasks.ask).toMatchObject({ status: 'completed', result: { agent_id: 'orchestrator' } });
        expect(tasks.ask.result.text).toBe('Your cart is empty.');
        expect(tasks['bad-url'].status).toBe('failed');
      } finally {
        server.close();
      }
    });
  });

  describe('streaming and push notifications', () => {
    it('streams the JSON-RPC envelope, then each task’s events, then a final event (SSE)', async () => {
      const { rootId, ids } = await create([
        { name: 's-root' },
        { name: 's-child', parent_id: 's-root', schemas: { method: 'sleep' }, inputs: { ms: 300 } },
      ]);
      const res = await t
        .http()
        .post('/tasks')
        .set('X-Api-Key', userKey)
        .send({
          jsonrpc: '2.0',
          id: 'stream-1',
          method: 'tasks.execute',
          params: { task_id: rootId, use_streaming: true },
        })
        .buffer(true)
        .parse((response, callback) => {
          let text = '';
          response.on('data', (chunk: Buffer) => (text += chunk.toString()));
          response.on('end', () => callback(null, text));
        })
        .expect(200);
      expect(res.headers['content-type']).toMatch(/^text\/event-stream/);
      const frames = (res.body as string).split('\n\n').filter((frame) => frame.trim() !== '');
      const envelope = JSON.parse(frames[0].replace(/^data: /, ''));
      expect(envelope).toMatchObject({
        jsonrpc: '2.0',
        id: 'stream-1',
        result: { root_task_id: rootId, status: 'started' },
      });
      const events = frames.slice(1).map((frame) =>
        JSON.parse(
          frame
            .split('\n')
            .find((l) => l.startsWith('data: '))!
            .slice(6),
        ),
      );
      const sequence = events.map(
        (event) => `${event.event}:${event.data.task_id === ids['s-child'] ? 'child' : 'root'}`,
      );
      expect(sequence[0]).toBe('task_status_update:child');
      expect(sequence).toContain('task_progress_update:child');
      expect(sequence.slice(-4)).toEqual([
        'task_completed:child',
        'task_status_update:root',
        'task_completed:root',
        'final:root',
      ]);
      for (const event of events) expect(event.data).toMatchObject({ protocol: 'a2a', root_task_id: rootId });
      expect(events.at(-1).data).toMatchObject({ status: 'completed', final: true });
    });

    it('posts every state change to the webhook with its headers, retrying failures, and logs deliveries', async () => {
      const received: { status: string; task_id: string; auth?: string }[] = [];
      let failuresLeft = 1;
      const receiver = await listen((req, body, res) => {
        if (failuresLeft-- > 0) {
          res.statusCode = 503;
          return res.end();
        }
        received.push({ ...JSON.parse(body), auth: req.headers['x-hook-token'] as string });
        res.end();
      });
      try {
        const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/events`;
        const { rootId } = await create([{ name: 'hooked' }]);
        const started = await ok('tasks.execute', {
          task_id: rootId,
          push_notification_config: { url, headers: { 'X-Hook-Token': 'sekret' } },
        });
        const deadline = Date.now() + 10_000;
        while (
          !received.some((r) => r.status === 'completed' && r.task_id === rootId && (r as Json).final) &&
          Date.now() < deadline
        ) {
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        expect(received.map((r) => r.status)).toEqual(['in_progress', 'completed', 'completed']);
        expect(received[1]).toMatchObject({ task_id: rootId, progress: 1, result: {}, auth: 'sekret' });
        // A delivery is logged just after the receiver answered it: wait for the last one's row.
        let log = await t.app.get(TaskPushNotifier).deliveriesOf(started.execution_id);
        for (let i = 0; log.length < 3 && i < 100; i++) {
          await new Promise((resolve) => setTimeout(resolve, 50));
          log = await t.app.get(TaskPushNotifier).deliveriesOf(started.execution_id);
        }
        expect(log.map((d) => [d.status, d.outcome])).toEqual([
          ['in_progress', 'delivered'],
          ['completed', 'delivered'],
          ['completed', 'delivered'],
        ]);
        expect(log[0]).toMatchObject({ attempts: 2, httpStatus: 200, target: url });
      } finally {
        receiver.close();
      }
    });

    it('refuses a webhook the SSRF guard would not call', async () => {
      const { rootId } = await create([{ name: 'unhooked' }]);
      const body = await rpc('tasks.execute', {
        task_id: rootId,
        push_notification_config: { url: 'http://169.254.169.254/latest' },
      });
      expect(body.error).toMatchObject({ code: -32602 });
      const notUrl = await rpc('tasks.execute', { task_id: rootId, webhook_config: { url: 'not a url' } });
      expect(notUrl.error).toMatchObject({ code: -32602, data: { field: 'push_notification_config.url' } });
    });
  });

  describe('POST /', () => {
    it('sends tasks.* methods to the task host and A2A methods to the default agent', async () => {
      const created = await rpc('tasks.create', [{ name: 'via-root' }], userKey, '/');
      expect(created.result).toMatchObject({ status: 'pending' });
      const a2a = await t
        .http()
        .post('/')
        .set('X-Api-Key', TEST_ADMIN_KEY)
        .send({
          jsonrpc: '2.0',
          id: 7,
          method: 'message/send',
          params: {
            message: {
              kind: 'message',
              role: 'user',
              messageId: 'm-1',
              parts: [{ kind: 'text', text: 'show my shopping cart' }],
            },
          },
        })
        .expect(200);
      expect(a2a.body).toMatchObject({ jsonrpc: '2.0', id: 7, result: { kind: 'message', role: 'agent' } });
      const noScope = await t
        .http()
        .post('/')
        .set('X-Api-Key', userKey)
        .send({ jsonrpc: '2.0', id: 8, method: 'message/send', params: {} });
      expect(noScope.status).toBe(403);
      // The A2A call's error, in the hub's codes (not the task-tree API's, whose -32004 is A2A's UnsupportedOperation).
      expect(noScope.body).toMatchObject({ id: 8, error: { code: -32043, data: { missing: ['messages'] } } });
      // tasks.* at POST / count against the task-tree API's limit, not the orchestrator's conversation one.
      const listed = await t
        .http()
        .post('/')
        .set('X-Api-Key', userKey)
        .send({ jsonrpc: '2.0', id: 9, method: 'tasks.list', params: {} })
        .expect(200);
      expect(listed.headers['x-ratelimit-limit']).toBe('600');
      expect(a2a.headers['x-ratelimit-limit']).toBe('60');
    });
  });
});

type Handler = (req: IncomingMessage, body: string, res: import('node:http').ServerResponse) => void;

async function listen(handler: Handler): Promise<Server> {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => handler(req, body, res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}
