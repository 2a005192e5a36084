import { AsyncLocalStorage } from 'node:async_hooks';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import type { AgentProfile } from '../src/a2a/agent-profile';
import { AgentHost } from '../src/a2a/hosting/agent-host';
import { A2aTaskRepository } from '../src/a2a/store/a2a-task.repository';
import { StreamingTaskEchoExecutor } from './support/echo-agents';
import { RemoteAgent, startLightsAgent } from './support/remote-agents';
import { RoutingLog } from '../src/orchestration/routing-log/routing-log';
import {
  homeAssistantBody,
  messageSend,
  registerAgent,
  startTestApp,
  TEST_ADMIN_KEY,
  TestApp,
} from './support/test-app';

const TASK_AGENT: AgentProfile = {
  id: 'tasker',
  kind: 'local',
  name: 'Tasker',
  description: 'Answers with a task',
  version: '1.0.0',
  skills: [],
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['text/plain'],
};

/** `onPath`: sent by the work a request started (its async context), not by a timer of the app's own. */
type Mark = { kind: 'statement'; sql: string; onPath: boolean } | { kind: 'answer'; url: string };

/**
 * PostgreSQL is not on the path of a message: a blocking message/send to an agent that answers
 * with a Task runs no statement before its answer is written - its task's row follows behind.
 * Every statement the app's driver sends (embedded or real PostgreSQL) and the moment each HTTP
 * answer is written are recorded in one sequence; the write-behind queues are given a second, so
 * a statement before the answer is one the answer waited for. Statements the app sends on timers
 * of its own (the task engine's lease poll every second, the readiness probe) are told apart by
 * the async context the request started: the HTTP server's request listeners run in one.
 */
describe('A2A hot path: no PostgreSQL before the answer (e2e)', () => {
  let t: TestApp;
  let lights: RemoteAgent;
  const marks: Mark[] = [];
  let recording = false;
  const request = new AsyncLocalStorage<true>();
  const originalQuery = Reflect.get(Client.prototype, 'query') as (this: Client, ...args: unknown[]) => unknown;

  beforeAll(async () => {
    // Rows written behind the answers wait a second to be batched: any statement in the measured
    // window then ran because a request waited for it.
    t = await startTestApp({
      ALLOW_PRIVATE_NETWORK_TARGETS: 'true',
      RATE_LIMIT_REGISTRY_PER_MIN: '100',
      WRITE_BEHIND_DELAY_MS: '1000',
    });
    lights = await startLightsAgent();
    await registerAgent(t, lights.baseUrl, 'lights');
    t.app.get(AgentHost).host({ profile: TASK_AGENT, executor: new StreamingTaskEchoExecutor() });
    Client.prototype.query = function (this: Client, ...args: unknown[]) {
      const config = args[0] as string | { text?: string };
      const sql = typeof config === 'string' ? config : String(config?.text);
      if (recording) marks.push({ kind: 'statement', sql, onPath: request.getStore() === true });
      return originalQuery.apply(this, args);
    } as typeof Client.prototype.query;
    t.app.getHttpServer().prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
      // The app's own listener runs next in this synchronous emit, and what it starts follows on.
      request.enterWith(true);
      const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
      res.end = ((...args: unknown[]) => {
        if (recording) marks.push({ kind: 'answer', url: req.url ?? '' });
        return end(...args);
      }) as typeof res.end;
    });
  });

  afterAll(async () => {
    Reflect.set(Client.prototype, 'query', originalQuery);
    await t?.close();
    await lights?.close();
  });

  const send = (agentId: string) =>
    t
      .http()
      .post(`/api/agents/${agentId}/v1`)
      .set('X-Api-Key', TEST_ADMIN_KEY)
      .send(messageSend(`porch on ${randomUUID()}`));

  it.each([
    ['a local agent that streams its task', 'tasker'],
    ['a remote agent (proxied) that streams its task', 'lights'],
  ])('%s: no statement before the answer, the task row right after', async (_name, agentId) => {
    await send(agentId).expect(200); // the key and the agent are read once, then cached
    await t.app.get(A2aTaskRepository).flushed();
    marks.length = 0;
    recording = true;
    const res = await send(agentId).expect(200);
    await t.app.get(A2aTaskRepository).flushed();
    recording = false;

    expect(res.body.result).toMatchObject({ kind: 'task', status: { state: 'completed' } });
    const answer = marks.findIndex((m) => m.kind === 'answer');
    expect(answer).toBeGreaterThanOrEqual(0);
    expect(marks.slice(0, answer).filter((m) => m.kind === 'statement' && m.onPath)).toEqual([]);
    const after = marks.slice(answer + 1).flatMap((m) => (m.kind === 'statement' ? [m.sql] : []));
    expect(after.filter((sql) => /INSERT INTO a2a_tasks/.test(sql))).toHaveLength(1);

    const taskId = res.body.result.id as string;
    const got = await t
      .http()
      .post(`/api/agents/${agentId}/v1`)
      .set('X-Api-Key', TEST_ADMIN_KEY)
      .send({ jsonrpc: '2.0', id: 2, method: 'tasks/get', params: { id: taskId } })
      .expect(200);
    expect(got.body.result).toMatchObject({ id: taskId, status: { state: 'completed' } });
    expect(got.body.result.artifacts).toHaveLength(1);
    const listed = await t
      .http()
      .get(`/api/agents/${agentId}/json/tasks`)
      .set('X-Api-Key', TEST_ADMIN_KEY)
      .set('A2A-Version', '1.0')
      .expect(200);
    expect(listed.body.tasks.map((task: { id: string }) => task.id)).toContain(taskId);
  });

  it('an orchestrator turn routed to a remote agent: no statement before the answer, its routing decision right after', async () => {
    const turn = (text: string, contextId: string) =>
      t
        .http()
        .post('/api/agents/orchestrator/v1')
        .set('X-Api-Key', TEST_ADMIN_KEY)
        .send(homeAssistantBody(text, contextId))
        .expect(200);
    await turn('turn on the porch lights', randomUUID());
    await t.app.get(RoutingLog).recent('admin', randomUUID()); // what the first turn queued is written
    marks.length = 0;
    recording = true;
    const contextId = randomUUID();
    const res = await turn('turn off the porch lights', contextId);
    const logged = await t.app.get(RoutingLog).recent('admin', contextId);
    recording = false;

    expect(res.body.result).toMatchObject({ kind: 'message', metadata: { agents_used: ['lights'] } });
    const answer = marks.findIndex((m) => m.kind === 'answer');
    expect(answer).toBeGreaterThanOrEqual(0);
    expect(marks.slice(0, answer).filter((m) => m.kind === 'statement' && m.onPath)).toEqual([]);
    const after = marks.slice(answer + 1).flatMap((m) => (m.kind === 'statement' ? [m.sql] : []));
    expect(after.filter((sql) => /INSERT INTO routing_decisions/.test(sql))).toHaveLength(1);
    expect(logged).toEqual([expect.objectContaining({ agents: ['lights'], outcome: 'answered' })]);
  });
});
