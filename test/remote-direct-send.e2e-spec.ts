import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import { Client as PgClient } from 'pg';
import { Message, Role, Task, TaskState } from '@a2a-js/sdk';
import { DefaultRequestHandler } from '@a2a-js/sdk/server';
import { AgentHost } from '../src/a2a/hosting/agent-host';
import { A2aUser } from '../src/a2a/hosting/a2a-user';
import { AGENT_ID_STATE_KEY, callContextFor } from '../src/a2a/hosting/call-context';
import { PushSubscriptionEntity } from '../src/a2a/push/entities/push-subscription.entity';
import { PushSubscriptions } from '../src/a2a/push/push-subscriptions';
import { A2aTaskRepository } from '../src/a2a/store/a2a-task.repository';
import { taskRecordKey } from '../src/a2a/store/task-record';
import { Principal } from '../src/platform/auth/principal';
import { KeyValueStore } from '../src/platform/kv/key-value-store';
import { AgentThreads } from '../src/registry/remote/agent-threads';
import { RemoteAgentExecutor } from '../src/registry/remote/remote-agent.executor';
import { RemoteClientFactory } from '../src/registry/remote/remote-client.factory';
import { remoteProfile } from '../src/registry/remote/remote-profile';
import { v1Client } from './support/a2a-clients';
import { EchoExecutor, TaskEchoExecutor } from './support/echo-agents';
import { RemoteAgent, startThermostatAgent, startV1Agent } from './support/remote-agents';
import { startWebhookReceiver } from './support/webhook-receiver';
import { messageSend, registerAgent, startTestApp, TEST_ADMIN_KEY, TestApp } from './support/test-app';

const OWNER = 'admin'; // TEST_ADMIN_KEY's owner
const ABOUT = { name: 'Echo', description: 'Echoes', version: '1.0.0' };
const SKILL = { id: 'echo', name: 'Echo', description: 'Echoes what it hears', tags: ['echo'], examples: ['echo hi'] };

/**
 * A blocking send that starts a task at a remote agent that does not stream is answered without
 * the SDK's event machinery (DirectSend). Each remote is hosted twice: registered (the direct
 * path) and, as `<id>-sdk`, through the SDK's DefaultRequestHandler as before; the two must
 * answer, store, index and link alike. Which path ran is read from DefaultRequestHandler's
 * sendMessage, called by the hub only on the SDK's path.
 */
describe('remote agents: blocking sends answered directly (e2e)', () => {
  let t: TestApp;
  const remotes: RemoteAgent[] = [];
  const sdkSend = jest.spyOn(DefaultRequestHandler.prototype, 'sendMessage');
  /** How many sends the hub's own SDK handlers took (the remote agents run the SDK in this process too). */
  const hubSdkSends = () => sdkSend.mock.calls.filter(([, ctx]) => ctx.state.has(AGENT_ID_STATE_KEY)).length;

  beforeAll(async () => {
    t = await startTestApp({ ALLOW_PRIVATE_NETWORK_TARGETS: 'true', RATE_LIMIT_REGISTRY_PER_MIN: '100' });
    const task = new TaskEchoExecutor();
    const message = new EchoExecutor();
    const agents: [string, RemoteAgent][] = [
      ['r-echo', await startV1Agent(ABOUT, SKILL, (ctx, bus) => task.execute(ctx, bus))],
      ['r-says', await startV1Agent(ABOUT, SKILL, (ctx, bus) => message.execute(ctx, bus))],
      ['r-thermo', await startThermostatAgent()],
      ['r-gone', await startV1Agent(ABOUT, SKILL, (ctx, bus) => task.execute(ctx, bus))],
    ];
    for (const [id, remote] of agents) {
      remotes.push(remote);
      await registerAgent(t, remote.baseUrl, id);
      await hostThroughSdk(t, `${id}-sdk`, remote.baseUrl);
    }
    await agents[3][1].close(); // registered while up; gone now
  });

  afterAll(async () => {
    sdkSend.mockRestore();
    await t?.close();
    for (const remote of remotes) await remote.close();
  });

  const rpc = (agentId: string, body: object, version?: string) => {
    const req = t.http().post(`/api/agents/${agentId}/v1`).set('X-Api-Key', TEST_ADMIN_KEY);
    return (version ? req.set('A2A-Version', version) : req).send(body).expect(200);
  };
  const getTask = async (agentId: string, id: string) =>
    (await rpc(agentId, { jsonrpc: '2.0', id: 9, method: 'tasks/get', params: { id } })).body.result;

  /** Sends the same v0.3 message/send (same messageId) to `agentId` and to its SDK-path twin. */
  async function sendToBoth(agentId: string, text: string, params?: object) {
    const messageId = randomUUID();
    const before = hubSdkSends();
    const direct = (await rpc(agentId, messageSend(text, { messageId, params }))).body.result;
    const directSdkSends = hubSdkSends() - before;
    const viaSdk = (await rpc(`${agentId}-sdk`, messageSend(text, { messageId, params }))).body.result;
    return { direct, viaSdk, directSdkSends, sdkSends: hubSdkSends() - before - directSdkSends };
  }

  it('answers a v0.3 message/send with the Task, record, index row and links the SDK path makes', async () => {
    const { direct, viaSdk, directSdkSends, sdkSends } = await sendToBoth('r-echo', 'porch on');
    expect([directSdkSends, sdkSends]).toEqual([0, 1]);
    expect(direct).toMatchObject({ kind: 'task', status: { state: 'completed' } });
    expect(direct.artifacts[0].parts[0]).toEqual({ kind: 'text', text: 'echo: porch on' });
    expect(direct.history.map((m: { role: string }) => m.role)).toEqual(['user']);
    expect(direct.history[0]).toMatchObject({ taskId: direct.id, contextId: direct.contextId });
    expect(comparable(direct)).toEqual(comparable(viaSdk));

    // tasks/get answers what was answered; the stored record and, once written, the row are the SDK path's.
    expect(await getTask('r-echo', direct.id)).toEqual(direct);
    const records = await Promise.all([record('r-echo', direct.id), record('r-echo-sdk', viaSdk.id)]);
    expect(records[0]).toMatchObject({ taskId: direct.id, agentId: 'r-echo', owner: OWNER });
    expect(comparable(records[0], ['r-echo'])).toEqual(comparable(records[1], ['r-echo-sdk', 'r-echo']));
    const tasks = t.app.get(A2aTaskRepository);
    await tasks.flushed();
    const rows = await Promise.all([
      tasks.findFinalTask('r-echo', OWNER, direct.id),
      tasks.findFinalTask('r-echo-sdk', OWNER, viaSdk.id),
    ]);
    expect(rows[0]).toBeDefined();
    expect(comparable(rows[0])).toEqual(comparable(rows[1]));

    // A task that is over has its conversation linked to the remote one, and no task link.
    const threads = t.app.get(AgentThreads);
    const remoteContext = await threads.remoteContext('r-echo', OWNER, direct.contextId);
    expect(remoteContext).toEqual(expect.any(String));
    expect(await threads.remoteTask('r-echo', direct.id)).toBeUndefined();
    // The next turn of the conversation reaches the same remote conversation.
    const next = (
      await rpc('r-echo', messageSend('porch off', { params: { message: turnIn('porch off', direct.contextId) } }))
    ).body.result;
    expect(next.contextId).toBe(direct.contextId);
    expect(remoteContextOf(remotes[0].requests.at(-1)!)).toBe(remoteContext);

    // A cancel finds the task, over: the same refusal as on the SDK path.
    const cancel = { jsonrpc: '2.0', id: 3, method: 'tasks/cancel', params: { id: direct.id } };
    const refusals = await Promise.all([
      rpc('r-echo', cancel),
      rpc('r-echo-sdk', { ...cancel, params: { id: viaSdk.id } }),
    ]);
    expect(refusals[0].body.error).toMatchObject({ code: -32002 });
    expect(comparable(refusals[0].body.error)).toEqual(comparable(refusals[1].body.error));
  });

  it('runs no PostgreSQL statement before the answer', async () => {
    const tasks = t.app.get(A2aTaskRepository);
    await rpc('r-echo', messageSend('warm up'));
    await tasks.flushed();
    const marks: string[] = [];
    const query = Reflect.get(PgClient.prototype, 'query') as (this: PgClient, ...args: unknown[]) => unknown;
    PgClient.prototype.query = function (this: PgClient, ...args: unknown[]) {
      const sql = args[0];
      marks.push(`statement: ${typeof sql === 'string' ? sql : (sql as { text?: string })?.text}`);
      return query.apply(this, args);
    } as typeof PgClient.prototype.query;
    const onRequest = (_req: IncomingMessage, res: ServerResponse) => res.once('finish', () => marks.push('answer'));
    t.app.getHttpServer().prependListener('request', onRequest);
    try {
      // A statement of the send's own comes before its answer every time; the hub's timers (a
      // card refresh, learned routes) may land in one send's window, not in three in a row.
      const firsts: string[] = [];
      for (let attempt = 0; attempt < 3 && firsts.at(-1) !== 'answer'; attempt++) {
        marks.length = 0;
        const before = hubSdkSends();
        await rpc('r-echo', messageSend('lamp on'));
        expect(hubSdkSends()).toBe(before);
        firsts.push(marks[0]);
        await tasks.flushed();
      }
      expect(firsts.at(-1)).toBe('answer');
    } finally {
      Reflect.set(PgClient.prototype, 'query', query);
      t.app.getHttpServer().removeListener('request', onRequest);
    }
  });

  it.each(['JSONRPC', 'HTTP+JSON'] as const)('answers the official v1.0 client over %s directly', async (transport) => {
    const client = await v1Client(`${t.baseUrl}/api/agents/r-echo`, transport, TEST_ADMIN_KEY);
    const before = hubSdkSends();
    const answer = (await client.sendMessage(v1Send('hall light'))) as Task;
    expect(hubSdkSends()).toBe(before);
    expect(answer.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(answer.artifacts[0].parts[0].content).toEqual({ $case: 'text', value: 'echo: hall light' });
    expect(await client.getTask({ tenant: '', id: answer.id, historyLength: undefined })).toEqual(answer);
  });

  it('answers a Message with a Message, as the SDK path does', async () => {
    const { direct, viaSdk, directSdkSends } = await sendToBoth('r-says', 'hello');
    expect(directSdkSends).toBe(0);
    expect(direct).toMatchObject({ kind: 'message', role: 'agent', parts: [{ kind: 'text', text: 'echo: hello' }] });
    expect(comparable(direct)).toEqual(comparable(viaSdk));
  });

  it('answers for a remote agent that is gone with the failed task the SDK path makes', async () => {
    const { direct, viaSdk, directSdkSends } = await sendToBoth('r-gone', 'anyone?');
    expect(directSdkSends).toBe(0);
    expect(direct.status.state).toBe('failed');
    expect(direct.status.message.parts[0].text).toBe('Remote agent r-gone failed: connection refused');
    expect(direct.metadata).toEqual({
      switchboard_remote_failure: { code: 'UPSTREAM_FAILED', reason: 'connection refused' },
    });
    expect(comparable(direct, ['r-gone'])).toEqual(comparable(viaSdk, ['r-gone-sdk']));
    expect(await getTask('r-gone', direct.id)).toEqual(direct);
  });

  it('keeps a task waiting for input open to the turn that continues it, which takes the SDK path', async () => {
    const { direct, viaSdk, directSdkSends } = await sendToBoth('r-thermo', 'make it warmer');
    expect(directSdkSends).toBe(0);
    expect(direct.status).toMatchObject({ state: 'input-required' });
    expect(comparable(direct)).toEqual(comparable(viaSdk));
    // As on the SDK's path, the task's event bus stays open here (for the next turn, and cancels).
    const host = t.app.get(AgentHost);
    const context = callContextFor('r-thermo', new A2aUser(new Principal('k', 'k', OWNER, ['messages'])));
    expect(host.isRunningHere('r-thermo', direct.id, context)).toBe(true);
    expect(host.isRunningHere('r-thermo-sdk', viaSdk.id, context)).toBe(true);
    // The link to the remote task is there for the next turn, which the SDK's path serves.
    expect(await t.app.get(AgentThreads).remoteTask('r-thermo', direct.id)).toMatchObject({
      contextId: direct.contextId,
    });
    const before = hubSdkSends();
    const done = (
      await rpc(
        'r-thermo',
        messageSend('21 degrees', { params: { message: turnIn('21 degrees', direct.contextId, direct.id) } }),
      )
    ).body.result;
    expect(hubSdkSends()).toBe(before + 1);
    expect(done).toMatchObject({ id: direct.id, status: { state: 'completed' } });
    expect(done.status.message.parts[0].text).toBe('Thermostat set to 21 degrees');
  });

  it('takes the SDK path for a request with a push config, whose webhook is notified', async () => {
    const hook = await startWebhookReceiver();
    try {
      const before = hubSdkSends();
      const config = { configuration: { blocking: true, pushNotificationConfig: { url: hook.url, token: 'tok-1' } } };
      const answer = (await rpc('r-echo', messageSend('porch on', { params: config }))).body.result;
      expect(hubSdkSends()).toBe(before + 1);
      await t.app.get(AgentHost).drainPushNotifications();
      expect(hook.received.at(-1)?.headers['x-a2a-notification-token']).toBe('tok-1');
      expect(hook.received.at(-1)?.body).toMatchObject({ kind: 'task', id: answer.id, status: { state: 'completed' } });
    } finally {
      await hook.close();
    }
  });

  it('notifies the owner’s agent-wide webhooks of a task answered directly', async () => {
    const hook = await startWebhookReceiver();
    const subscriptions = t.app.get(PushSubscriptions);
    const subscription = await subscriptions.subscribe(
      Object.assign(new PushSubscriptionEntity(), {
        id: randomUUID(),
        agentId: 'r-echo',
        owner: OWNER,
        url: hook.url,
        events: ['status_update', 'artifact_update'],
        createdAt: new Date(),
        updatedAt: new Date(),
      }),
    );
    try {
      const before = hubSdkSends();
      const answer = (await rpc('r-echo', messageSend('porch on'))).body.result;
      expect(hubSdkSends()).toBe(before);
      await t.app.get(AgentHost).drainPushNotifications();
      expect(hook.received).toHaveLength(1);
      expect(hook.received[0].body).toMatchObject({
        task: { id: answer.id, contextId: answer.contextId, status: { state: 'TASK_STATE_COMPLETED' } },
      });
    } finally {
      await subscriptions.unsubscribe(OWNER, subscription.id);
      await hook.close();
    }
  });

  it('takes the SDK path for streaming and for non-blocking sends', async () => {
    const client = await v1Client(`${t.baseUrl}/api/agents/r-echo`, 'JSONRPC', TEST_ADMIN_KEY);
    const events = [];
    for await (const event of client.sendMessageStream(v1Send('stream it'))) events.push(event);
    expect(events.at(-1)?.payload).toMatchObject({
      $case: 'task',
      value: { status: { state: TaskState.TASK_STATE_COMPLETED } },
    });
    const before = hubSdkSends();
    const answer = (await rpc('r-echo', messageSend('later', { params: { configuration: { blocking: false } } }))).body
      .result;
    expect(hubSdkSends()).toBe(before + 1);
    expect(answer).toMatchObject({ kind: 'task' });
  });

  /** The remote agent's task record as stored. */
  async function record(agentId: string, taskId: string): Promise<Record<string, unknown>> {
    const stored = await t.app.get(KeyValueStore).get(taskRecordKey(agentId, OWNER, taskId));
    expect(stored).toBeDefined();
    return JSON.parse(stored!.value) as Record<string, unknown>;
  }
});

/** Hosts a remote agent as the hub did before DirectSend: every send through the SDK's DefaultRequestHandler. */
async function hostThroughSdk(t: TestApp, id: string, baseUrl: string): Promise<void> {
  const card = (await (await fetch(`${baseUrl}/.well-known/agent-card.json`)).json()) as Record<string, unknown>;
  const client = t.app.get(RemoteClientFactory).create(card, baseUrl, {});
  const executor = new RemoteAgentExecutor(id, () => client, t.app.get(AgentThreads), false);
  t.app.get(AgentHost).host({ profile: remoteProfile(id, card), executor });
}

/** A v1.0 SendMessageRequest with one text part, starting a conversation. */
function v1Send(text: string) {
  const message: Message = {
    messageId: randomUUID(),
    contextId: '',
    taskId: '',
    role: Role.ROLE_USER,
    parts: [{ content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: 'text/plain' }],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
  return { tenant: '', message, configuration: undefined, metadata: undefined };
}

/** A v0.3 message continuing a conversation (and a task). */
function turnIn(text: string, contextId: string, taskId?: string) {
  const message = {
    kind: 'message',
    role: 'user',
    messageId: randomUUID(),
    parts: [{ kind: 'text', text }],
    contextId,
  };
  return taskId ? { ...message, taskId } : message;
}

function remoteContextOf(request: RemoteAgent['requests'][number]): unknown {
  const body = request.body as { params?: { message?: { contextId?: string; context_id?: string } } };
  return body.params?.message?.contextId;
}

/**
 * What two answers (or records) must share: the same, but for the ids and times each call made
 * up - each UUID becomes its order of appearance, each time "time" - and the agent ids `names`
 * (the direct agent and its SDK-path twin differ by name only; the twin's name first).
 */
function comparable(value: unknown, names: string[] = []): unknown {
  const seen = new Map<string, string>();
  const json = JSON.stringify(value, (_key, raw: unknown) => {
    if (typeof raw !== 'string') return raw;
    let v = raw;
    if (/^\d{4}-\d{2}-\d{2}T[\d:.]+Z$/.test(v)) return 'time';
    for (const name of names) v = v.replaceAll(name, 'agent');
    return v.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, (id) => {
      if (!seen.has(id)) seen.set(id, `id-${seen.size}`);
      return seen.get(id)!;
    });
  });
  return JSON.parse(json);
}
