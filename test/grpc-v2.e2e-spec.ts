import { startLightsAgent, RemoteAgent } from './support/remote-agents';
import { bufCall, bufJson } from './support/grpc-buf-curl';
import { call, switchboardClient } from './support/grpc-clients';
import { registerAgent, startTestApp, TEST_ADMIN_KEY, TestApp } from './support/test-app';
import type * as grpc from '@grpc/grpc-js';

const auth = { 'x-api-key': TEST_ADMIN_KEY };
const RFC3339 = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;

describe('switchboard.v2 beside v1: enums, Timestamp, Struct, a request and response per RPC (e2e, buf curl)', () => {
  let t: TestApp;
  let lights: RemoteAgent;
  const v2 = (method: string, request: object = {}, headers: Record<string, string> = auth) =>
    bufCall(t.grpcAddress, `switchboard.v2.${method}`, request, headers);

  beforeAll(async () => {
    t = await startTestApp({ ALLOW_PRIVATE_NETWORK_TARGETS: 'true', RATE_LIMIT_REGISTRY_PER_MIN: '1000' });
    lights = await startLightsAgent();
    await registerAgent(t, lights.baseUrl, 'lights');
  });
  afterAll(async () => {
    await t?.close();
    await lights?.close();
  });

  it('answers SystemService.GetInfo with enums and a Duration', async () => {
    const info = bufJson(await v2('SystemService/GetInfo'));
    expect(info).toMatchObject({
      name: 'switchboard',
      database: expect.stringMatching(/^DATABASE_MODE_(EMBEDDED|EXTERNAL)$/),
      kv: expect.stringMatching(/^KV_BACKEND_(REDIS|IN_PROCESS)$/),
      caller: { scopes: expect.arrayContaining(['admin']) },
    });
    expect(info.uptime ?? '0s').toMatch(/^\d+s$/);
  });

  it('answers GetAgent with enums, the card as a Struct and Timestamps', async () => {
    const { agent } = bufJson(await v2('RegistryService/GetAgent', { agentId: 'lights' }));
    expect(agent).toMatchObject({
      agentId: 'lights',
      name: 'Lights',
      kind: 'AGENT_KIND_REMOTE',
      status: 'AGENT_STATUS_CONNECTED',
      authMode: 'AUTH_MODE_NONE',
      card: { name: 'Lights', capabilities: { streaming: true }, skills: [expect.objectContaining({ id: 'lights' })] },
    });
    expect(agent.createTime).toMatch(RFC3339);
    expect(agent.lastSeenTime).toMatch(RFC3339);
    const orchestrator = bufJson(await v2('RegistryService/GetAgent', { agentId: 'orchestrator' })).agent;
    expect(orchestrator.kind).toBe('AGENT_KIND_LOCAL');
  });

  it('lists every card as a Struct, the orchestrator first', async () => {
    const { cards } = bufJson(await v2('RegistryService/ListAgentCards'));
    expect(cards[0]).toMatchObject({ name: 'Orchestrator', protocolVersion: '0.3.0' });
    expect(cards.map((card: { name: string }) => card.name)).toContain('Lights');
  });

  it('registers with an AuthMode enum and answers the extended view with update_time', async () => {
    const request = {
      baseUrl: lights.baseUrl,
      id: 'lights-2',
      auth: { mode: 'AUTH_MODE_API_KEY', secret: 's3cret-value' },
    };
    const { agent } = bufJson(await v2('RegistryService/RegisterAgent', request));
    expect(agent).toMatchObject({ agentId: 'lights-2', authMode: 'AUTH_MODE_API_KEY' });
    const extended = bufJson(await v2('RegistryService/GetAgentExtended', { agentId: 'lights-2' }));
    expect(extended).toMatchObject({ agent: { agentId: 'lights-2' }, authHeader: 'X-Api-Key', hasSecret: true });
    expect(extended.updateTime).toMatch(RFC3339);
    expect(JSON.stringify(extended)).not.toContain('s3cret-value');

    const again = await v2('RegistryService/RegisterAgent', request);
    expect(again.stderr).toMatch(/"code": "already_exists"/);
    expect(bufJson(await v2('RegistryService/DeleteAgent', { agentId: 'lights-2' }))).toEqual({});
  });

  it('validates a card with outcome and severity enums', async () => {
    const report = bufJson(await v2('RegistryService/ValidateAgentCard', { baseUrl: lights.baseUrl }));
    expect(report).toMatchObject({
      name: 'Lights',
      validation: expect.stringMatching(/^VALIDATION_OUTCOME_(PASSED|WARNINGS)$/),
    });
    for (const problem of report.problems ?? []) expect(problem.severity).toMatch(/^PROBLEM_SEVERITY_(ERROR|WARNING)$/);
  });

  it('refuses the built-in agent as v1 does, and an unknown id with NOT_FOUND', async () => {
    expect((await v2('RegistryService/DeleteAgent', { agentId: 'orchestrator' })).stderr).toMatch(
      /"code": "failed_precondition"/,
    );
    expect((await v2('RegistryService/GetAgent', { agentId: 'nobody' })).stderr).toMatch(/"code": "not_found"/);
    const badMode = await v2('RegistryService/RegisterAgent', { baseUrl: lights.baseUrl, auth: { mode: 7 } });
    expect(badMode.stderr).toMatch(/"code": "invalid_argument"/);
  });

  it('keeps switchboard.v1 answering with its own encoding', async () => {
    type V1 = grpc.Client & { GetAgent: Parameters<typeof call>[0] };
    const registry = switchboardClient<V1>('registry', 'RegistryService', t.grpcAddress);
    try {
      const { response } = await call(registry.GetAgent, registry, { agent_id: 'lights' }, auth);
      expect(response).toMatchObject({ agent_id: 'lights', kind: 'remote', status: 'connected' });
      expect(JSON.parse((response as { card_json: string }).card_json)).toMatchObject({ name: 'Lights' });
    } finally {
      registry.close();
    }
  });

  describe('TaskService', () => {
    const task = (name: string, extra: object = {}) => ({ name, ...extra });

    it('creates tasks with Struct inputs and reads them back with enums and Timestamps', async () => {
      const inputs = { url: 'https://example.com', retries: 2, tags: ['a', 'b'], nested: { on: true, none: null } };
      const created = bufJson(await v2('TaskService/CreateTasks', { tasks: [task('struct', { inputs })] }));
      expect(created).toMatchObject({ id: expect.any(String), status: 'TASK_STATUS_PENDING' });
      const { task: read } = bufJson(await v2('TaskService/GetTask', { taskId: created.id }));
      expect(read).toMatchObject({ id: created.id, name: 'struct', status: 'TASK_STATUS_PENDING', inputs });
      expect(read.createTime).toMatch(RFC3339);
      expect(read.startTime).toBeUndefined();
      expect(bufJson(await v2('TaskService/GetTaskTree', { taskId: created.id })).root.task.id).toBe(created.id);
    });

    it('pages ListTasks with page_size and page_token, and refuses a token it did not issue', async () => {
      const children = [1, 2, 3].map((i) => task(`child-${i}`, { parentId: 'parent' }));
      const parent = bufJson(await v2('TaskService/CreateTasks', { tasks: [task('parent'), ...children] }))
        .id as string;
      const seen: string[] = [];
      let token = '';
      for (let page = 0; page < 5; page++) {
        const answer = bufJson(await v2('TaskService/ListTasks', { parentId: parent, pageSize: 2, pageToken: token }));
        expect(answer.totalSize).toBe(page === 0 ? 3 : 4);
        seen.push(...answer.tasks.map((t: { name: string }) => t.name));
        token = answer.nextPageToken ?? '';
        if (!token) break;
        // Keyset paging: a task created between pages neither shifts nor repeats the rest.
        if (page === 0) await v2('TaskService/CreateTasks', { tasks: [task('late', { parentId: parent })] });
      }
      expect(seen.sort()).toEqual(['child-1', 'child-2', 'child-3']);
      const exact = bufJson(await v2('TaskService/ListTasks', { parentId: parent, pageSize: 4 }));
      expect(exact.tasks).toHaveLength(4);
      expect(exact.nextPageToken).toBeUndefined(); // no page follows a full last page
      const bad = await v2('TaskService/ListTasks', { pageToken: 'bm90IGEgdG9rZW4' });
      expect(bad.stderr).toMatch(/"code": "invalid_argument"[\s\S]*page_token/);
      const tooBig = await v2('TaskService/ListTasks', { pageSize: 5000 });
      expect(tooBig.stderr).toMatch(/"code": "invalid_argument"[\s\S]*page_size/);
      const filtered = bufJson(
        await v2('TaskService/ListTasks', { status: 'TASK_STATUS_COMPLETED', parentId: parent }),
      );
      expect(filtered).toEqual({}); // proto3 JSON leaves out an empty list and a zero
      const pending = bufJson(await v2('TaskService/ListTasks', { status: 'TASK_STATUS_PENDING', parentId: parent }));
      expect(pending.totalSize).toBe(4);
    });

    it('executes a tree and streams its events with kind and status enums, ending with FINAL', async () => {
      const sleepTask = task('sleepy', { schemas: { method: 'sleep' }, inputs: { ms: 1500 } });
      const id = bufJson(await v2('TaskService/CreateTasks', { tasks: [sleepTask] })).id as string;
      const watching = v2('TaskService/WatchTaskTree', { taskId: id });
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const started = bufJson(await v2('TaskService/ExecuteTask', { taskId: id }));
      expect(started).toMatchObject({ rootTaskId: id, executionId: expect.any(String) });
      const watched = await watching;
      expect(watched.stderr).toBe('');
      const events = watched.stdout
        .split(/\n(?=\{)/)
        .filter((chunk) => chunk.trim())
        .map((chunk) => JSON.parse(chunk) as { kind: string; status?: string; time?: string });
      expect(events.at(-1)).toMatchObject({ kind: 'TASK_EVENT_KIND_FINAL', final: true });
      for (const event of events) {
        expect(event.kind).toMatch(/^TASK_EVENT_KIND_/);
        expect(event.status).toMatch(/^TASK_STATUS_/);
        expect(event.time).toMatch(RFC3339);
      }
      const again = await v2('TaskService/CancelTask', { taskId: id });
      expect(again.stderr).toMatch(/"code": "failed_precondition"/);
    });

    it("executes and watches in one call, from the execution's very first event, however fast the run", async () => {
      const quick = task('quick', { schemas: { method: 'sleep' }, inputs: { ms: 0 } });
      const streamed = await v2('TaskService/ExecuteTaskStream', { tasks: [quick] });
      expect(streamed.stderr).toBe('');
      const messages = streamed.stdout
        .split(/\n(?=\{)/)
        .filter((chunk) => chunk.trim())
        .map((chunk) => JSON.parse(chunk) as { started?: Record<string, string>; event?: Record<string, unknown> });
      const [first, ...rest] = messages;
      expect(first.started).toMatchObject({ rootTaskId: expect.any(String), executionId: expect.any(String) });
      const events = rest.map((m) => m.event!);
      // The run's first event (the task starting) is there, then everything up to the final one.
      expect(events[0]).toMatchObject({ status: 'TASK_STATUS_IN_PROGRESS', executionId: first.started!.executionId });
      expect(events.some((e) => e.kind === 'TASK_EVENT_KIND_COMPLETED')).toBe(true);
      expect(events.at(-1)).toMatchObject({ kind: 'TASK_EVENT_KIND_FINAL', final: true });
      const { task: done } = bufJson(await v2('TaskService/GetTask', { taskId: first.started!.rootTaskId }));
      expect(done.status).toBe('TASK_STATUS_COMPLETED');
    });
  });
});
