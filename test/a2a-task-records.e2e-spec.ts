import { Message, Role, Task, TaskState } from '@a2a-js/sdk';
import { ServerCallContext } from '@a2a-js/sdk/server';
import { randomUUID } from 'node:crypto';
import { A2aUser } from '../src/a2a/hosting/a2a-user';
import { A2aTaskRepository } from '../src/a2a/store/a2a-task.repository';
import { KvTaskStore } from '../src/a2a/store/kv-task.store';
import { Principal } from '../src/platform/auth/principal';
import { EventBus } from '../src/platform/events/event-bus';
import { KeyValueStore } from '../src/platform/kv/key-value-store';
import { A2A_RECORD_EVENTS_CHANNEL } from '../src/task-host/records/a2a-task-records.service';
import { startTestApp, TEST_ADMIN_KEY, TestApp } from './support/test-app';

const userMessage = (text: string, contextId: string): Message => ({
  messageId: randomUUID(),
  contextId,
  taskId: '',
  role: Role.ROLE_USER,
  parts: [{ content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: '' }],
  metadata: undefined,
  extensions: [],
  referenceTaskIds: [],
});

describe('A2A task records for operators: /internal/orchestration/tasks (e2e)', () => {
  let t: TestApp;
  let opsKey: string;
  let userKey: string;
  const events: Record<string, unknown>[] = [];

  /** Saves a task as the orchestrator's task store does for `owner`, as if a replica were working on it. */
  async function storeTask(state: TaskState, metadata?: Record<string, unknown>): Promise<string> {
    const id = randomUUID();
    const contextId = randomUUID();
    const store = new KvTaskStore('orchestrator', t.app.get(KeyValueStore), t.app.get(A2aTaskRepository), {
      runningMs: 60_000,
      finishedMs: 60_000,
    });
    const task: Task = {
      id,
      contextId,
      status: { state, message: undefined, timestamp: new Date().toISOString() },
      artifacts: [],
      history: [userMessage("what's in my shopping cart?", contextId)],
      metadata,
    };
    await store.save(task, new ServerCallContext({ user: new A2aUser(new Principal('k', 'k', 'bob', ['messages'])) }));
    return id;
  }

  beforeAll(async () => {
    // The tests poll the internal routes, which share the (low) registry rate limit.
    t = await startTestApp({ RATE_LIMIT_REGISTRY_PER_MIN: '1000' });
    const key = async (name: string, scopes: string[]) =>
      (await t.http().post('/api/keys').set('X-Api-Key', TEST_ADMIN_KEY).send({ name, scopes }).expect(201)).body
        .key as string;
    opsKey = await key('ops', ['internal']);
    userKey = await key('user', ['messages', 'tasks']);
    await t.app.get(EventBus).subscribe(A2A_RECORD_EVENTS_CHANNEL, (event) => void events.push(event as never));
  });

  afterAll(async () => t?.close());

  it('shows the persisted record with its etag and expiry, secrets redacted', async () => {
    const id = await storeTask(TaskState.TASK_STATE_WORKING, { apiKey: 'sbk_secret', note: 'kept' });
    const res = await t.http().get(`/internal/orchestration/tasks/${id}`).set('X-Api-Key', opsKey).expect(200);
    expect(res.body).toMatchObject({
      taskId: id,
      agentId: 'orchestrator',
      owner: 'bob',
      archived: false,
      task: { id, status: { state: 'TASK_STATE_WORKING' }, metadata: { apiKey: '[REDACTED]', note: 'kept' } },
    });
    expect(typeof res.body.etag).toBe('string');
    expect(Date.parse(res.body.expiresAtUtc)).toBeGreaterThan(Date.now());
    expect(JSON.stringify(res.body)).not.toContain('sbk_secret');
  });

  it('answers 404 for an unknown task and 403 without the internal scope', async () => {
    const missing = await t
      .http()
      .get(`/internal/orchestration/tasks/${randomUUID()}`)
      .set('X-Api-Key', opsKey)
      .expect(404);
    expect(missing.body).toMatchObject({ code: 'NOT_FOUND' });
    const id = await storeTask(TaskState.TASK_STATE_WORKING);
    await t.http().get(`/internal/orchestration/tasks/${id}`).set('X-Api-Key', userKey).expect(403);
    await t.http().post(`/internal/orchestration/tasks/${id}/rehydrate`).set('X-Api-Key', userKey).expect(403);
    await t.http().post(`/internal/orchestration/tasks/${randomUUID()}/rehydrate`).set('X-Api-Key', opsKey).expect(404);
  });

  it('rehydrates a working task onto this replica and announces it; refuses finished ones', async () => {
    const id = await storeTask(TaskState.TASK_STATE_WORKING);
    const res = await t
      .http()
      .post(`/internal/orchestration/tasks/${id}/rehydrate`)
      .set('X-Api-Key', opsKey)
      .expect(202);
    expect(res.body).toEqual({ taskId: id, agentId: 'orchestrator', state: 'working', status: 'enqueued' });
    // The orchestrator picks it up again and finishes it (the built-in shop answers the cart question).
    const deadline = Date.now() + 10_000;
    let state = 'TASK_STATE_WORKING';
    while (state === 'TASK_STATE_WORKING' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      state = (await t.http().get(`/internal/orchestration/tasks/${id}`).set('X-Api-Key', opsKey)).body.task.status
        .state;
    }
    expect(state).toBe('TASK_STATE_COMPLETED');
    expect(events).toContainEqual(
      expect.objectContaining({ type: 'a2a_task.resumed', task_id: id, agent_id: 'orchestrator' }),
    );

    const again = await t
      .http()
      .post(`/internal/orchestration/tasks/${id}/rehydrate`)
      .set('X-Api-Key', opsKey)
      .expect(409);
    expect(again.body.message).toMatch(/completed/);
    const waiting = await storeTask(TaskState.TASK_STATE_INPUT_REQUIRED);
    await t.http().post(`/internal/orchestration/tasks/${waiting}/rehydrate`).set('X-Api-Key', opsKey).expect(409);
  });

  it('deletes a record and announces it', async () => {
    const id = await storeTask(TaskState.TASK_STATE_WORKING);
    await t.http().delete(`/internal/orchestration/tasks/${id}`).set('X-Api-Key', opsKey).expect(204);
    await t.http().get(`/internal/orchestration/tasks/${id}`).set('X-Api-Key', opsKey).expect(404);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(events).toContainEqual(expect.objectContaining({ type: 'a2a_task.deleted', task_id: id, owner: 'bob' }));
  });
});
