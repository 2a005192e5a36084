import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { Retention } from '../src/platform/database/retention';
import { Metrics } from '../src/platform/metrics/metrics';
import { startTestApp, TestApp } from './support/test-app';

const DAY = 86_400_000;
const ago = (days: number) => new Date(Date.now() - days * DAY);

describe('retention (e2e)', () => {
  let t: TestApp;
  let db: DataSource;

  beforeAll(async () => {
    t = await startTestApp({
      RETENTION_INTERVAL_SECONDS: '0', // passes run only when the test asks
      A2A_TASK_RETENTION_DAYS: '5',
      ROUTING_LOG_RETENTION_DAYS: '5',
      TASK_TREE_RETENTION_DAYS: '5',
      PUSH_DELIVERY_RETENTION_DAYS: '5',
    });
    db = t.app.get(DataSource);
  });
  afterAll(async () => t?.close());

  const decision = (at: Date) =>
    db.query(
      `INSERT INTO routing_decisions (id, created_at, owner, context_id, request_text, agents, reasoning, router, duration_ms, outcome)
       VALUES ($1, $2, 'o', 'c', 'hi', '[]', '', 'default', 1, 'answered')`,
      [randomUUID(), at],
    );
  const a2aTask = (id: string, at: Date, final: boolean) =>
    db.query(
      `INSERT INTO a2a_tasks (agent_id, owner, task_id, context_id, state, created_at, updated_at, final_task)
       VALUES ('agent', 'o', $1, 'c', 'TASK_STATE_COMPLETED', $2, $2, $3)`,
      [id, at, final ? JSON.stringify({ id }) : null],
    );
  const delivery = (at: Date) =>
    db.query(
      `INSERT INTO a2a_push_deliveries (id, agent_id, task_id, config_id, target, event, outcome, attempts, created_at)
       VALUES ($1, 'agent', 't', 'cfg', 'http://x', 'status', 'delivered', 1, $2)`,
      [randomUUID(), at],
    );
  /** A root and one child; `status` the root's. */
  const tree = async (status: string, finished: Date) => {
    const root = randomUUID();
    await db.query(
      `INSERT INTO tasks (id, root_id, user_id, name, status, created_at, updated_at, completed_at)
       VALUES ($1, $1, 'o', 'root', $2, $3, $3, $3)`,
      [root, status, finished],
    );
    await db.query(
      `INSERT INTO tasks (id, root_id, parent_id, user_id, name, status, created_at, updated_at)
       VALUES ($1, $2, $2, 'o', 'child', 'completed', $3, $3)`,
      [randomUUID(), root, finished],
    );
    return root;
  };
  const count = async (sql: string, params: unknown[] = []) =>
    Number((await db.query(sql, params))[0].count as string | number);

  it('removes what is past its retention and done with, keeps the rest, and counts it', async () => {
    await decision(ago(10));
    await decision(ago(1));
    const [oldFinal, oldOpen, veryOldOpen, recent] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    await a2aTask(oldFinal, ago(10), true);
    await a2aTask(oldOpen, ago(10), false); // may still have a live record: kept
    await a2aTask(veryOldOpen, ago(40), false); // no record outlives 30 days
    await a2aTask(recent, ago(1), true);
    await delivery(ago(10));
    await delivery(ago(1));
    const oldTree = await tree('completed', ago(10));
    const running = await tree('in_progress', ago(10));
    const recentTree = await tree('failed', ago(1));

    const metrics = t.app.get(Metrics);
    const before = (await metrics.retentionPrunedRows.get()).values;
    const removed = await t.app.get(Retention).pruneNow();
    expect(removed).toMatchObject({
      routing_decisions: 1,
      a2a_tasks: 2,
      a2a_push_deliveries: 1,
      task_trees: 2,
      task_push_deliveries: 0,
    });

    expect(await count(`SELECT count(*) FROM routing_decisions WHERE created_at < now() - interval '5 days'`)).toBe(0);
    expect(await count(`SELECT count(*) FROM routing_decisions`)).toBeGreaterThanOrEqual(1);
    const tasksLeft = await db.query<{ task_id: string }[]>(`SELECT task_id FROM a2a_tasks WHERE agent_id = 'agent'`);
    expect(tasksLeft.map((r) => r.task_id).sort()).toEqual([oldOpen, recent].sort());
    expect(await count(`SELECT count(*) FROM a2a_push_deliveries`)).toBe(1);
    for (const [root, left] of [
      [oldTree, 0],
      [running, 2],
      [recentTree, 2],
    ] as const) {
      expect(await count(`SELECT count(*) FROM tasks WHERE root_id = $1`, [root])).toBe(left);
    }
    const after = (await metrics.retentionPrunedRows.get()).values;
    const counted = (values: typeof after, kind: string) => values.find((v) => v.labels.kind === kind)?.value ?? 0;
    expect(counted(after, 'a2a_tasks') - counted(before, 'a2a_tasks')).toBe(2);
    expect(counted(after, 'task_trees') - counted(before, 'task_trees')).toBe(2);
  });

  it('skips the pass while another replica holds the pruning lock', async () => {
    if (!process.env.DATABASE_URL) return; // the embedded database serves every connection in one session
    const other = db.createQueryRunner();
    await other.connect();
    try {
      await other.query('SELECT pg_advisory_lock($1)', [0x5b_0a_7d_01]);
      await decision(ago(10));
      expect(await t.app.get(Retention).pruneNow()).toBeUndefined();
      expect(await count(`SELECT count(*) FROM routing_decisions WHERE created_at < now() - interval '5 days'`)).toBe(
        1,
      );
      await other.query('SELECT pg_advisory_unlock($1)', [0x5b_0a_7d_01]);
      expect(await t.app.get(Retention).pruneNow()).toMatchObject({ routing_decisions: 1 });
    } finally {
      await other.release();
    }
  });
});
