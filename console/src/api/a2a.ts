import { rpc, rpcId } from './json-rpc';
import { postEventStream } from './sse';

/** A2A v0.3 over JSON-RPC, as the hub's agents speak it (no A2A-Version header: the v0.3 wire format). */

export interface Part {
  kind: 'text' | 'data' | 'file';
  text?: string;
  data?: unknown;
  file?: { name?: string; uri?: string; mimeType?: string };
}

export interface A2aMessage {
  kind: 'message';
  messageId: string;
  role: 'user' | 'agent';
  parts: Part[];
  contextId?: string;
  taskId?: string;
  metadata?: Record<string, unknown>;
}

export interface TaskStatus {
  state: string;
  message?: A2aMessage;
  timestamp?: string;
}

export interface Artifact {
  artifactId: string;
  name?: string;
  parts: Part[];
}

export type StreamEvent =
  | (A2aMessage & { kind: 'message' })
  | {
      kind: 'task';
      id: string;
      contextId: string;
      status: TaskStatus;
      artifacts?: Artifact[];
      metadata?: Record<string, unknown>;
    }
  | {
      kind: 'status-update';
      taskId: string;
      contextId: string;
      status: TaskStatus;
      final?: boolean;
      metadata?: Record<string, unknown>;
    }
  | {
      kind: 'artifact-update';
      taskId: string;
      contextId: string;
      artifact: Artifact;
      append?: boolean;
      lastChunk?: boolean;
    };

/** A v4 UUID from getRandomValues (randomUUID needs a secure context; a hub on a LAN address is not one). */
export function uuid(): string {
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

export function textOf(parts: Part[] | undefined): string {
  return (parts ?? [])
    .filter((p) => p.kind === 'text' && p.text)
    .map((p) => p.text)
    .join('\n');
}

export class A2aError extends Error {
  constructor(
    message: string,
    readonly code: number,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

function userMessage(text: string, ids: { contextId?: string; taskId?: string }): A2aMessage {
  const message: A2aMessage = { kind: 'message', messageId: uuid(), role: 'user', parts: [{ kind: 'text', text }] };
  if (ids.contextId) message.contextId = ids.contextId;
  if (ids.taskId) message.taskId = ids.taskId;
  return message;
}

/**
 * `message/send`: the answer in one reply (the Task or Message). Used to continue a task: the
 * SDK's stream handler wants a Task as a stream's first event, while an agent continuing its task
 * (the orchestrator among them) starts with a status update.
 */
export function sendMessage(endpoint: string, text: string, ids: { contextId?: string; taskId?: string }) {
  return rpc<StreamEvent>(endpoint, 'message/send', { message: userMessage(text, ids) });
}

/** `message/stream`: yields each event of the answer; contextId and taskId continue a conversation or task. */
export async function* streamMessage(
  endpoint: string,
  text: string,
  ids: { contextId?: string; taskId?: string },
  signal?: AbortSignal,
): AsyncGenerator<StreamEvent> {
  const body = { jsonrpc: '2.0', id: rpcId(), method: 'message/stream', params: { message: userMessage(text, ids) } };
  for await (const event of postEventStream(endpoint, body, signal)) {
    const reply = JSON.parse(event.data) as {
      result?: StreamEvent;
      error?: { code: number; message: string; data?: unknown };
    };
    if (reply.error) throw new A2aError(reply.error.message, reply.error.code, reply.error.data);
    if (reply.result) yield reply.result;
  }
}
