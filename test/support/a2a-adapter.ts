import { Message, Role, StreamResponse, Task, TaskState } from '@a2a-js/sdk';
import { randomUUID } from 'node:crypto';
import { Transport, v03Client, v1Client } from './a2a-clients';

/** What a test needs to see of a result, whichever client produced it. */
export interface Seen {
  kind: 'task' | 'message';
  id: string;
  contextId: string;
  /** A2A v0.3 state names: submitted, working, completed, canceled, ... */
  state?: string;
  /** Text of the status message (tasks) or of the message. */
  text: string;
  artifactText: string;
  historyTexts: string[];
}

export interface StreamEvent {
  kind: 'task' | 'message' | 'status' | 'artifact';
  state?: string;
  taskId?: string;
}

/** One interface over the official v1.0 (SDK 1.3) and v0.3 (SDK 0.3.14) clients. */
export interface A2aTestClient {
  readonly label: string;
  send(text: string, contextId?: string): Promise<Seen>;
  stream(text: string): AsyncGenerator<StreamEvent>;
  get(taskId: string): Promise<Seen>;
  cancel(taskId: string): Promise<Seen>;
  resubscribe(taskId: string): AsyncGenerator<StreamEvent>;
  setPush(taskId: string, url: string, token: string): Promise<{ id: string; url: string }>;
  getPush(taskId: string, configId: string): Promise<{ id: string; url: string }>;
  listPush(taskId: string): Promise<{ id: string; url: string }[]>;
  deletePush(taskId: string, configId: string): Promise<void>;
}

const V1_STATE: Record<number, string> = {
  [TaskState.TASK_STATE_SUBMITTED]: 'submitted',
  [TaskState.TASK_STATE_WORKING]: 'working',
  [TaskState.TASK_STATE_COMPLETED]: 'completed',
  [TaskState.TASK_STATE_FAILED]: 'failed',
  [TaskState.TASK_STATE_CANCELED]: 'canceled',
  [TaskState.TASK_STATE_INPUT_REQUIRED]: 'input-required',
  [TaskState.TASK_STATE_REJECTED]: 'rejected',
  [TaskState.TASK_STATE_AUTH_REQUIRED]: 'auth-required',
};

const v1Text = (m?: Message) =>
  (m?.parts ?? []).flatMap((p) => (p.content?.$case === 'text' ? [p.content.value] : [])).join(' ');

function v1Seen(result: Message | Task): Seen {
  if ('messageId' in result && 'role' in result) {
    return {
      kind: 'message',
      id: result.messageId,
      contextId: result.contextId,
      text: v1Text(result),
      artifactText: '',
      historyTexts: [],
    };
  }
  const task = result;
  return {
    kind: 'task',
    id: task.id,
    contextId: task.contextId,
    state: V1_STATE[task.status?.state ?? 0],
    text: v1Text(task.status?.message),
    artifactText: task.artifacts
      .flatMap((a) => a.parts.flatMap((p) => (p.content?.$case === 'text' ? [p.content.value] : [])))
      .join(' '),
    historyTexts: task.history.map(v1Text),
  };
}

function v1Event(event: StreamResponse): StreamEvent {
  const payload = event.payload;
  switch (payload?.$case) {
    case 'task':
      return { kind: 'task', state: V1_STATE[payload.value.status?.state ?? 0], taskId: payload.value.id };
    case 'message':
      return { kind: 'message' };
    case 'statusUpdate':
      return { kind: 'status', state: V1_STATE[payload.value.status?.state ?? 0], taskId: payload.value.taskId };
    default:
      return { kind: 'artifact', taskId: payload?.value.taskId };
  }
}

export async function v1TestClient(agentBaseUrl: string, transport: Transport, apiKey: string): Promise<A2aTestClient> {
  const client = await v1Client(agentBaseUrl, transport, apiKey);
  const request = (text: string, contextId = '') => ({
    tenant: '',
    message: {
      messageId: randomUUID(),
      contextId,
      taskId: '',
      role: Role.ROLE_USER,
      parts: [
        {
          content: { $case: 'text' as const, value: text },
          metadata: undefined,
          filename: '',
          mediaType: 'text/plain',
        },
      ],
      metadata: undefined,
      extensions: [],
      referenceTaskIds: [],
    },
    configuration: undefined,
    metadata: undefined,
  });
  const push = (c: { id: string; url: string }) => ({ id: c.id, url: c.url });
  return {
    label: `v1.0 ${transport}`,
    send: async (text, contextId) => v1Seen(await client.sendMessage(request(text, contextId))),
    async *stream(text) {
      for await (const event of client.sendMessageStream(request(text))) yield v1Event(event);
    },
    get: async (id) => v1Seen(await client.getTask({ tenant: '', id, historyLength: undefined })),
    cancel: async (id) => v1Seen(await client.cancelTask({ tenant: '', id, metadata: undefined })),
    async *resubscribe(id) {
      for await (const event of client.resubscribeTask({ tenant: '', id })) yield v1Event(event);
    },
    setPush: async (taskId, url, token) =>
      push(
        await client.createTaskPushNotificationConfig({
          tenant: '',
          id: '',
          taskId,
          url,
          token,
          authentication: undefined,
        }),
      ),
    getPush: async (taskId, id) => push(await client.getTaskPushNotificationConfig({ tenant: '', taskId, id })),
    listPush: async (taskId) =>
      (await client.listTaskPushNotificationConfig({ tenant: '', taskId, pageSize: 0, pageToken: '' })).configs.map(
        push,
      ),
    deletePush: async (taskId, id) => client.deleteTaskPushNotificationConfig({ tenant: '', taskId, id }),
  };
}

type V03Part = { kind: string; text?: string };
type V03Message = { kind: 'message'; messageId: string; contextId?: string; parts: V03Part[] };
type V03Task = {
  kind: 'task';
  id: string;
  contextId: string;
  status: { state: string; message?: V03Message };
  artifacts?: { parts: V03Part[] }[];
  history?: V03Message[];
};
const v03Text = (parts?: V03Part[]) =>
  (parts ?? []).flatMap((p) => (p.kind === 'text' && p.text ? [p.text] : [])).join(' ');

function v03Seen(result: V03Message | V03Task): Seen {
  if (result.kind === 'message') {
    return {
      kind: 'message',
      id: result.messageId,
      contextId: result.contextId ?? '',
      text: v03Text(result.parts),
      artifactText: '',
      historyTexts: [],
    };
  }
  return {
    kind: 'task',
    id: result.id,
    contextId: result.contextId,
    state: result.status.state,
    text: v03Text(result.status.message?.parts),
    artifactText: (result.artifacts ?? []).map((a) => v03Text(a.parts)).join(' '),
    historyTexts: (result.history ?? []).map((m) => v03Text(m.parts)),
  };
}

function v03Event(event: { kind: string; id?: string; taskId?: string; status?: { state: string } }): StreamEvent {
  switch (event.kind) {
    case 'task':
      return { kind: 'task', state: event.status?.state, taskId: event.id };
    case 'status-update':
      return { kind: 'status', state: event.status?.state, taskId: event.taskId };
    case 'artifact-update':
      return { kind: 'artifact', taskId: event.taskId };
    default:
      return { kind: 'message' };
  }
}

export async function v03TestClient(
  agentBaseUrl: string,
  transport: Transport,
  apiKey: string,
  agentId: string,
): Promise<A2aTestClient> {
  // The v0.3 gRPC service has no tenant: callers name a non-default agent with x-agent-id.
  const client = await v03Client(agentBaseUrl, transport, apiKey, agentId);
  const c = client as unknown as Record<string, (...args: unknown[]) => unknown>;
  const message = (text: string, contextId?: string) => ({
    message: {
      kind: 'message',
      messageId: randomUUID(),
      role: 'user',
      parts: [{ kind: 'text', text }],
      ...(contextId ? { contextId } : {}),
    },
  });
  const push = (cfg: { pushNotificationConfig: { id?: string; url: string } }) => ({
    id: cfg.pushNotificationConfig.id ?? '',
    url: cfg.pushNotificationConfig.url,
  });
  return {
    label: `v0.3 ${transport}`,
    send: async (text, contextId) => v03Seen((await c.sendMessage(message(text, contextId))) as V03Task),
    async *stream(text) {
      for await (const event of c.sendMessageStream(message(text)) as AsyncIterable<never>) yield v03Event(event);
    },
    get: async (id) => v03Seen((await c.getTask({ id })) as V03Task),
    cancel: async (id) => v03Seen((await c.cancelTask({ id })) as V03Task),
    async *resubscribe(id) {
      for await (const event of c.resubscribeTask({ id }) as AsyncIterable<never>) yield v03Event(event);
    },
    setPush: async (taskId, url, token) =>
      push((await c.setTaskPushNotificationConfig({ taskId, pushNotificationConfig: { url, token } })) as never),
    getPush: async (taskId, id) =>
      push((await c.getTaskPushNotificationConfig({ id: taskId, pushNotificationConfigId: id })) as never),
    listPush: async (taskId) => ((await c.listTaskPushNotificationConfig({ id: taskId })) as never[]).map(push),
    deletePush: async (taskId, id) => {
      await c.deleteTaskPushNotificationConfig({ id: taskId, pushNotificationConfigId: id });
    },
  };
}
