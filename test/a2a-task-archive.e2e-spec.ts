import { randomUUID } from 'node:crypto';
import { A2aTaskRepository, TaskStateRow } from '../src/a2a/store/a2a-task.repository';
import { startTestApp, TestApp } from './support/test-app';

/**
 * a2a_tasks as the write-behind statement leaves it, each state flushed on its own so every
 * write after the first goes through the upsert's conflict rule (embedded or real Postgres).
 */
describe('A2A task archive rows (e2e)', () => {
  let t: TestApp;
  let tasks: A2aTaskRepository;

  beforeAll(async () => {
    t = await startTestApp();
    tasks = t.app.get(A2aTaskRepository);
  });
  afterAll(async () => t?.close());

  const rowOf = async (agentId: string, owner: string, taskId: string) =>
    (await tasks.findByTaskId(taskId)).find((r) => r.agentId === agentId && r.owner === owner);

  const record = async (row: TaskStateRow) => {
    await tasks.recordState(row);
    await tasks.flushed();
  };

  it('moves a row forward only: a later state replaces it, an older one or a non-final one after the final does not', async () => {
    const taskId = randomUUID();
    const base = { agentId: 'archive-a', owner: 'alice', taskId, contextId: 'ctx-1' };
    const start = new Date(Date.now() - 10_000);
    await record({ ...base, state: 'TASK_STATE_SUBMITTED', at: start });
    await record({ ...base, state: 'TASK_STATE_WORKING', contextId: 'ctx-2', at: new Date(start.getTime() + 1_000) });
    expect(await rowOf('archive-a', 'alice', taskId)).toMatchObject({
      state: 'TASK_STATE_WORKING',
      contextId: 'ctx-2',
      createdAt: start,
      updatedAt: new Date(start.getTime() + 1_000),
      finalTask: null,
    });

    const done = new Date(start.getTime() + 2_000);
    await record({ ...base, state: 'TASK_STATE_COMPLETED', at: done, finalTask: { id: taskId, n: 1 } });
    await record({ ...base, state: 'TASK_STATE_WORKING', at: new Date(start.getTime() + 3_000) });
    await record({ ...base, state: 'TASK_STATE_SUBMITTED', at: new Date(start.getTime() + 500) });
    expect(await rowOf('archive-a', 'alice', taskId)).toMatchObject({
      state: 'TASK_STATE_COMPLETED',
      createdAt: start,
      updatedAt: done,
      finalTask: { id: taskId, n: 1 },
    });

    // Another final snapshot of the task (more of its output) may still replace it.
    await record({
      ...base,
      state: 'TASK_STATE_COMPLETED',
      at: new Date(start.getTime() + 4_000),
      finalTask: { n: 2 },
    });
    expect(await tasks.findFinalTask('archive-a', 'alice', taskId)).toEqual({ n: 2 });
  });

  it('writes many rows of one batch, each its own, keeping owners and agents apart', async () => {
    const taskId = randomUUID();
    const at = new Date();
    const rows: TaskStateRow[] = [];
    for (const agentId of ['archive-b', 'archive-c']) {
      for (const owner of ['bob', 'carol', 'dave']) {
        rows.push({
          agentId,
          owner,
          taskId,
          contextId: `${agentId}/${owner}`,
          state: 'TASK_STATE_COMPLETED',
          at,
          finalTask: { owner, agentId, text: 'quotes " and \\ backslashes, 😀, {"json": [1]}' },
        });
      }
    }
    for (const row of rows) await tasks.recordState(row);
    await tasks.flushed();
    for (const row of rows) {
      expect(await tasks.findFinalTask(row.agentId, row.owner, taskId)).toEqual(row.finalTask);
      expect(await rowOf(row.agentId, row.owner, taskId)).toMatchObject({ contextId: row.contextId, updatedAt: at });
    }
  });

  it('keeps text an agent made up as the driver would have sent it (an unpaired surrogate as U+FFFD)', async () => {
    const taskId = randomUUID();
    await record({
      agentId: 'archive-d',
      owner: 'erin',
      taskId,
      contextId: 'ctx \ud800 end',
      state: 'TASK_STATE_WORKING',
      at: new Date(),
    });
    expect((await rowOf('archive-d', 'erin', taskId))?.contextId).toBe('ctx \ufffd end');
  });
});
