import { Message, Role, Task, TaskState } from '@a2a-js/sdk';
import { RequestMalformedError } from '@a2a-js/sdk/errors';
import { ServerCallContext } from '@a2a-js/sdk/server';
import { randomUUID } from 'node:crypto';
import { A2aUser } from '../src/a2a/hosting/a2a-user';
import { A2aTaskRepository } from '../src/a2a/store/a2a-task.repository';
import { KvTaskStore } from '../src/a2a/store/kv-task.store';
import { TaskIndexRecovery } from '../src/a2a/store/task-index-recovery';
import { TaskStores } from '../src/a2a/store/task-stores';
import { taskRecordKey, TaskPersistenceRecord, UNINDEXED_TASKS } from '../src/a2a/store/task-record';
import { Principal } from '../src/platform/auth/principal';
import { AppConfig } from '../src/platform/config/app-config';
import { KeyValueStore } from '../src/platform/kv/key-value-store';
import { startTestApp, TestApp } from './support/test-app';

const contextFor = (owner: string) =>
  new ServerCallContext({ user: new A2aUser(new Principal(randomUUID(), owner, owner, ['messages'])) });

const message = (text: string): Message => ({
  messageId: randomUUID(),
  contextId: 'ctx',
  taskId: '',
  role: Role.ROLE_USER,
  parts: [{ content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: '' }],
  metadata: undefined,
  extensions: [],
  referenceTaskIds: [],
});

const task = (id: string, state: TaskState, history: Message[] = [], contextId = 'ctx'): Task => ({
  id,
  contextId,
  status: { state, message: undefined, timestamp: new Date().toISOString() },
  artifacts: [],
  history,
  metadata: undefined,
});

/** KvTaskStore on the app's real backends (embedded or Postgres; in-process or Redis). */
describe('A2A task records (e2e)', () => {
  let t: TestApp;
  let kv: KeyValueStore;
  let tasks: A2aTaskRepository;
  const store = (agent = 'agent-a', ttlMs = 60_000) =>
    new KvTaskStore(agent, kv, tasks, { runningMs: ttlMs, finishedMs: ttlMs });

  beforeAll(async () => {
    t = await startTestApp();
    kv = t.app.get(KeyValueStore);
    tasks = t.app.get(A2aTaskRepository);
  });
  afterAll(async () => t?.close());

  it('keeps a TaskPersistenceRecord with an expiry and a changing etag', async () => {
    const id = randomUUID();
    const alice = contextFor('alice');
    await store().save(task(id, TaskState.TASK_STATE_WORKING, [message('hi')]), alice);
    const first = await kv.get(taskRecordKey('agent-a', 'alice', id));
    const record = JSON.parse(first!.value) as TaskPersistenceRecord;
    expect(record).toMatchObject({ taskId: id, agentId: 'agent-a', owner: 'alice', context: null });
    expect(Date.parse(record.expiresAtUtc) - Date.now()).toBeGreaterThan(55_000);
    await store().save(task(id, TaskState.TASK_STATE_COMPLETED, [message('hi')]), alice);
    expect((await kv.get(taskRecordKey('agent-a', 'alice', id)))!.etag).not.toBe(first!.etag);
  });

  it("keeps a finished task's record 10 s in an in-process store, the whole TTL in Redis, and a running one the whole TTL in both", async () => {
    const stores = t.app.get(TaskStores).forAgent('agent-a');
    const alice = contextFor('alice');
    const left = async (id: string) => {
      const record = JSON.parse((await kv.get(taskRecordKey('agent-a', 'alice', id)))!.value) as TaskPersistenceRecord;
      return Date.parse(record.expiresAtUtc) - Date.now();
    };
    const running = randomUUID();
    const finished = randomUUID();
    await stores.save(task(running, TaskState.TASK_STATE_INPUT_REQUIRED, [message('hi')]), alice);
    await stores.save(task(finished, TaskState.TASK_STATE_COMPLETED, [message('hi')]), alice);
    const ttlMs = t.app.get(AppConfig).a2a.taskTtlSeconds * 1000;
    expect(await left(running)).toBeGreaterThan(ttlMs - 5_000);
    if (kv.kind === 'in-process') {
      expect(await left(finished)).toBeGreaterThan(5_000);
      expect(await left(finished)).toBeLessThanOrEqual(10_000);
    } else {
      expect(await left(finished)).toBeGreaterThan(ttlMs - 5_000);
    }
  });

  it('answers a finished task whose record is gone from its archive row, even before the row is written', async () => {
    const id = randomUUID();
    const alice = contextFor('alice');
    await store().save(task(id, TaskState.TASK_STATE_COMPLETED, [message('kept')]), alice);
    // As its expiry would, before the write-behind queue has written the row (a few ms later).
    await kv.delete(taskRecordKey('agent-a', 'alice', id));
    const loaded = await store().load(id, alice);
    expect(loaded?.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(loaded?.history.map((m) => m.parts[0]?.content)).toEqual([{ $case: 'text', value: 'kept' }]);
  });

  it('lists finished tasks whose records are gone from their rows', async () => {
    const lister = store('agent-archived-list');
    const bob = contextFor('bob');
    const ids = [randomUUID(), randomUUID()];
    for (const id of ids) await lister.save(task(id, TaskState.TASK_STATE_COMPLETED, [message(id)]), bob);
    for (const id of ids) await kv.delete(taskRecordKey('agent-archived-list', 'bob', id));
    const listed = await lister.list(
      {
        tenant: '',
        contextId: '',
        status: TaskState.TASK_STATE_UNSPECIFIED,
        pageSize: 10,
        pageToken: '',
        historyLength: undefined,
        statusTimestampAfter: undefined,
        includeArtifacts: true,
      },
      bob,
    );
    expect(listed.tasks.map((t) => [t.id, t.status?.state, t.history[0]?.parts[0]?.content]).sort()).toEqual(
      ids.map((id) => [id, TaskState.TASK_STATE_COMPLETED, { $case: 'text', value: id }]).sort(),
    );
  });

  it('loses no update when two replicas write the same task at once', async () => {
    const id = randomUUID();
    const ctx = contextFor('alice');
    const replicaA = store();
    const replicaB = store();
    await replicaA.save(task(id, TaskState.TASK_STATE_WORKING, [message('start')]), ctx);
    // Each writer loads, appends its own message and saves - 20 of them, concurrently, on two stores.
    await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        const replica = i % 2 ? replicaA : replicaB;
        const current = (await replica.load(id, ctx))!;
        await replica.save({ ...current, history: [...current.history, message(`writer ${i}`)] }, ctx);
      }),
    );
    const final = (await replicaA.load(id, ctx))!;
    const texts = final.history.map((m) => (m.parts[0].content as { value: string }).value);
    expect(texts).toHaveLength(21);
    expect(new Set(texts)).toEqual(new Set(['start', ...Array.from({ length: 20 }, (_, i) => `writer ${i}`)]));
  });

  it('never lets a late non-final status overwrite a final one', async () => {
    const id = randomUUID();
    const ctx = contextFor('alice');
    const stale = task(id, TaskState.TASK_STATE_WORKING);
    await store().save(task(id, TaskState.TASK_STATE_CANCELED), ctx);
    await store().save(
      { ...stale, status: { ...stale.status!, timestamp: new Date(Date.now() + 1000).toISOString() } },
      ctx,
    );
    expect((await store().load(id, ctx))!.status!.state).toBe(TaskState.TASK_STATE_CANCELED);
  });

  it('keeps the first final status: a late result never undoes a cancel', async () => {
    const id = randomUUID();
    const ctx = contextFor('alice');
    await store().save(task(id, TaskState.TASK_STATE_CANCELED), ctx);
    const late = task(id, TaskState.TASK_STATE_COMPLETED, [message('too late')]);
    await store().save(
      { ...late, status: { ...late.status!, timestamp: new Date(Date.now() + 5000).toISOString() } },
      ctx,
    );
    const final = (await store().load(id, ctx))!;
    expect(final.status!.state).toBe(TaskState.TASK_STATE_CANCELED);
    expect(final.history).toHaveLength(1);
  });

  it('never lets the Postgres index move backwards', async () => {
    const id = randomUUID();
    const at = new Date();
    const row = { agentId: 'agent-a', owner: 'alice', taskId: id, contextId: 'ctx' };
    await tasks.recordState({ ...row, state: 'TASK_STATE_COMPLETED', at, finalTask: { id } });
    await tasks.recordState({ ...row, state: 'TASK_STATE_WORKING', at: new Date(at.getTime() + 1000) });
    await tasks.recordState({ ...row, state: 'TASK_STATE_SUBMITTED', at: new Date(at.getTime() - 1000) });
    const page = await tasks.page({ agentId: 'agent-a', owner: 'alice', limit: 100 });
    expect(page.rows.find((r) => r.taskId === id)).toMatchObject({ state: 'TASK_STATE_COMPLETED', finalTask: { id } });
  });

  it('answers for a finished task after its record expired, from Postgres', async () => {
    const id = randomUUID();
    const ctx = contextFor('bob');
    const short = store('agent-a', 200);
    await short.save(task(id, TaskState.TASK_STATE_COMPLETED, [message('done soon')]), ctx);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(await kv.get(taskRecordKey('agent-a', 'bob', id))).toBeNull();
    const archived = await short.load(id, ctx);
    expect(archived).toMatchObject({ id, status: { state: TaskState.TASK_STATE_COMPLETED } });
    expect(archived!.history).toHaveLength(1);

    const unfinished = randomUUID();
    await short.save(task(unfinished, TaskState.TASK_STATE_WORKING), ctx);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(await short.load(unfinished, ctx)).toBeUndefined();
  });

  it('archives an agent output PostgreSQL cannot hold as jsonb (NUL, unpaired surrogate) without losing it', async () => {
    const ctx = contextFor('nul');
    const short = store('agent-a', 200);
    const text = 'a\u0000b \ud800 c\udfff 😀 \\u0000';
    const id = randomUUID();
    await short.save(task(id, TaskState.TASK_STATE_COMPLETED, [message(text)]), ctx);
    await tasks.flushed();
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(await kv.get(taskRecordKey('agent-a', 'nul', id))).toBeNull();
    const archived = await short.load(id, ctx);
    expect(archived?.history[0].parts[0].content).toEqual({ $case: 'text', value: text });
  });

  it('indexes what a replica wrote but died before indexing, and owes nothing once a row is in', async () => {
    const ctx = contextFor('frank');
    const written = randomUUID();
    await store().save(task(written, TaskState.TASK_STATE_COMPLETED, [message('kept')]), ctx);
    await tasks.flushed();
    const owed = async () => (await kv.flagged(UNINDEXED_TASKS, Date.now(), 1_000)).map((f) => f.key);
    expect(await owed()).not.toContain(taskRecordKey('agent-a', 'frank', written));

    // A record whose replica was killed between its key-value write and its Postgres row.
    const orphan = randomUUID();
    const key = taskRecordKey('agent-a', 'frank', orphan);
    const record: TaskPersistenceRecord = {
      taskId: orphan,
      agentId: 'agent-a',
      owner: 'frank',
      task: Task.toJSON(task(orphan, TaskState.TASK_STATE_COMPLETED, [message('orphaned')])),
      context: null,
      expiresAtUtc: new Date(Date.now() + 60_000).toISOString(),
    };
    const at = Date.now() - 60_000;
    await kv.set(key, JSON.stringify(record), { ttlMs: 60_000, flag: { set: UNINDEXED_TASKS, at } });
    expect(await owed()).toContain(key);
    expect(await t.app.get(TaskIndexRecovery).recover()).toBeGreaterThanOrEqual(1);
    await tasks.flushed();
    expect(await tasks.findFinalTask('agent-a', 'frank', orphan)).toMatchObject({ id: orphan });
    expect(await owed()).not.toContain(key);
  });

  it('scopes tasks to their owner and their agent', async () => {
    const id = randomUUID();
    await store('agent-a').save(task(id, TaskState.TASK_STATE_COMPLETED), contextFor('carol'));
    expect(await store('agent-a').load(id, contextFor('mallory'))).toBeUndefined();
    expect(await store('agent-b').load(id, contextFor('carol'))).toBeUndefined();
    expect(await store('agent-a').load(id, contextFor('carol'))).toBeDefined();
  });

  it('lists newest first with filters and page tokens', async () => {
    const ctx = contextFor('dave');
    const s = store('agent-list');
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const id = `task-${i}-${randomUUID()}`;
      ids.push(id);
      await s.save(
        task(
          id,
          i === 4 ? TaskState.TASK_STATE_COMPLETED : TaskState.TASK_STATE_WORKING,
          [],
          i < 2 ? 'ctx-one' : 'ctx-two',
        ),
        ctx,
      );
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const page = (params: Partial<Parameters<KvTaskStore['list']>[0]>) =>
      s.list(
        {
          tenant: '',
          contextId: '',
          status: TaskState.TASK_STATE_UNSPECIFIED,
          pageToken: '',
          statusTimestampAfter: undefined,
          ...params,
        },
        ctx,
      );
    const first = await page({ pageSize: 2 });
    expect(first.tasks.map((x) => x.id)).toEqual([ids[4], ids[3]]);
    expect(first.totalSize).toBe(5);
    const second = await page({ pageSize: 2, pageToken: first.nextPageToken });
    expect(second.tasks.map((x) => x.id)).toEqual([ids[2], ids[1]]);
    const last = await page({ pageSize: 2, pageToken: second.nextPageToken });
    expect(last.tasks.map((x) => x.id)).toEqual([ids[0]]);
    expect(last.nextPageToken).toBe('');
    expect((await page({ contextId: 'ctx-one' })).tasks.map((x) => x.id).sort()).toEqual([ids[0], ids[1]].sort());
    expect((await page({ status: TaskState.TASK_STATE_COMPLETED })).tasks.map((x) => x.id)).toEqual([ids[4]]);
    await expect(page({ pageToken: 'garbage' })).rejects.toBeInstanceOf(RequestMalformedError);
    expect(
      (
        await s.list(
          { tenant: '', contextId: '', status: 0, pageToken: '', statusTimestampAfter: undefined },
          contextFor('eve'),
        )
      ).tasks,
    ).toEqual([]);
  });
});
