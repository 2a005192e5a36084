import type { Subscription } from '../src/platform/events/event-bus';
import { TaskEvent, TaskEvents } from '../src/task-host/engine/task-events';
import { provisionBackends, realDatabaseUrl, realRedisUrl, TestBackends } from './support/backends';
import { ServerProcess } from './support/server-process';
import { startTestApp, TEST_ADMIN_KEY, TestApp } from './support/test-app';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Replicas share only Postgres and Redis: this needs both (the second CI run has them). */
const describeReplicas = realDatabaseUrl && realRedisUrl ? describe : describe.skip;

const ENGINE = { TASK_LEASE_MS: '1500', TASK_POLL_INTERVAL_MS: '200', TASK_CONCURRENCY: '2' };
const CHILDREN = 8;

describeReplicas('task trees across replicas: a tree survives the replica running it (e2e)', () => {
  let backends: TestBackends;
  let survivor: TestApp;
  const cleanups: (() => Promise<unknown>)[] = [];

  beforeAll(async () => {
    backends = await provisionBackends();
    survivor = await startTestApp({ ...ENGINE }, backends);
  });

  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
    await survivor?.close();
    await backends?.cleanup();
  });

  async function rpc(baseUrl: string, method: string, params: unknown): Promise<Json> {
    const res = await fetch(`${baseUrl}/tasks`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Api-Key': TEST_ADMIN_KEY },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    });
    const body = (await res.json()) as Json;
    if (body.error) throw new Error(`${method}: ${JSON.stringify(body.error)}`);
    return body.result as Json;
  }

  /** A root with CHILDREN sleeping children: with concurrency 2 it takes a few seconds. */
  const tree = () => [
    { name: 'root', schemas: { method: 'aggregate' } },
    ...Array.from({ length: CHILDREN }, (_, i) => ({
      name: `child-${i}`,
      parent_id: 'root',
      schemas: { method: 'sleep' },
      inputs: { ms: 400 },
    })),
  ];

  /** Every task_completed event of the tree, as any replica sees them over Redis. */
  async function completions(rootId: string): Promise<{ counts: Map<string, number>; subscription: Subscription }> {
    const counts = new Map<string, number>();
    const subscription = await survivor.app.get(TaskEvents).watch(rootId, (event: TaskEvent) => {
      if (event.event === 'task_completed') counts.set(event.data.task_id, (counts.get(event.data.task_id) ?? 0) + 1);
    });
    return { counts, subscription };
  }

  async function waitUntil(check: () => Promise<boolean> | boolean, ms: number, what: string): Promise<void> {
    const deadline = Date.now() + ms;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  async function expectFinishedOnce(rootId: string, counts: Map<string, number>): Promise<Json[]> {
    let tasks: Json[] = [];
    await waitUntil(
      async () => {
        const root = await rpc(survivor.baseUrl, 'tasks.tree', { task_id: rootId });
        tasks = [root.task, ...(root.children as Json[]).map((c) => c.task)];
        return root.task.status === 'completed';
      },
      30_000,
      'the tree to complete on the surviving replica',
    );
    // Events travel asynchronously: give the last ones a moment.
    await waitUntil(() => counts.size === tasks.length, 5_000, 'every completion event');
    expect(tasks.every((task) => task.status === 'completed')).toBe(true);
    for (const task of tasks) expect(counts.get(task.id)).toBe(1);
    return tasks;
  }

  it('finishes a tree on another replica when the one running it shuts down mid-run', async () => {
    const leaving = await startTestApp({ ...ENGINE }, backends);
    cleanups.push(() => leaving.close());
    const created = await rpc(leaving.baseUrl, 'tasks.create', tree());
    const { counts, subscription } = await completions(created.id);
    cleanups.push(() => subscription.unsubscribe());

    await rpc(leaving.baseUrl, 'tasks.execute', { task_id: created.id });
    await waitUntil(() => counts.size >= 2, 10_000, 'two children to complete on the first replica');
    await leaving.close();

    const tasks = await expectFinishedOnce(created.id, counts);
    // The interrupted children ran again (a second attempt), and completed once.
    expect(tasks.filter((task) => task.name !== 'root').length).toBe(CHILDREN);
  });

  it('takes over after the lease expires when the replica running a tree is killed', async () => {
    const doomed = await ServerProcess.start({
      ...backends.env,
      ...ENGINE,
      ADMIN_API_KEY: TEST_ADMIN_KEY,
      LOG_LEVEL: 'warn',
    });
    cleanups.push(() => doomed.stop('SIGKILL'));
    await doomed.ready(60_000);
    const created = await rpc(doomed.baseUrl, 'tasks.create', tree());
    const { counts, subscription } = await completions(created.id);
    cleanups.push(() => subscription.unsubscribe());

    await rpc(doomed.baseUrl, 'tasks.execute', { task_id: created.id });
    await waitUntil(() => counts.size >= 2, 15_000, 'two children to complete on the doomed replica');
    await doomed.stop('SIGKILL');

    await expectFinishedOnce(created.id, counts);
  });
});
