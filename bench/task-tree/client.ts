/**
 * The benchmark's side of the `tasks.*` JSON-RPC API at POST /tasks: plain calls, and
 * tasks.execute with `use_streaming: true` read as server-sent events until the `final` one.
 */
import { performance } from 'node:perf_hooks';
import { Agent, fetch } from 'undici';

/** No client-side time limits: creating 50k tasks may take longer than undici's 300 s defaults. */
const dispatcher = new Agent({ headersTimeout: 0, bodyTimeout: 0, keepAliveTimeout: 60_000 });

export class RpcError extends Error {}

export class TaskClient {
  private nextId = 1;

  constructor(
    private readonly baseUrl: string,
    private readonly apiKey: string,
  ) {}

  /** A JSON-RPC body, serialized (so callers can time the request without the stringify). */
  body(method: string, params: unknown): string {
    return JSON.stringify({ jsonrpc: '2.0', id: this.nextId++, method, params });
  }

  async call<T>(method: string, params: unknown): Promise<T> {
    return this.send<T>(this.body(method, params));
  }

  async send<T>(body: string): Promise<T> {
    const response = await fetch(`${this.baseUrl}/tasks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': this.apiKey },
      body,
      dispatcher,
    });
    const text = await response.text();
    if (!response.ok) throw new RpcError(`HTTP ${response.status}: ${text.slice(0, 500)}`);
    const reply = JSON.parse(text) as { result?: T; error?: { code: number; message: string; data?: unknown } };
    if (reply.error)
      throw new RpcError(
        `JSON-RPC ${reply.error.code}: ${reply.error.message} ${JSON.stringify(reply.error.data ?? '').slice(0, 500)}`,
      );
    return reply.result as T;
  }

  /**
   * tasks.execute with use_streaming: reads the event stream until the `final` event. Times are
   * performance.now() values: `acknowledgedAt` when the JSON-RPC envelope (the first frame)
   * arrived, `finalAt` when the final event did.
   */
  async executeStreaming(taskId: string, timeoutMs: number): Promise<StreamOutcome> {
    const response = await fetch(`${this.baseUrl}/tasks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': this.apiKey, accept: 'text/event-stream' },
      body: this.body('tasks.execute', { task_id: taskId, use_streaming: true }),
      dispatcher,
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (!response.ok || !response.body)
      throw new RpcError(`HTTP ${response.status}: ${(await response.text()).slice(0, 500)}`);
    const type = response.headers.get('content-type') ?? '';
    if (!type.startsWith('text/event-stream'))
      throw new RpcError(`not an event stream: ${(await response.text()).slice(0, 500)}`);
    const decoder = new TextDecoder();
    const events: Record<string, number> = {};
    let buffer = '';
    let acknowledgedAt: number | undefined;
    let executionId: string | undefined;
    let final: { status?: string; error?: unknown } | undefined;
    let finalAt: number | undefined;
    for await (const chunk of response.body) {
      buffer += decoder.decode(chunk as Uint8Array, { stream: true });
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const frame = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (frame.startsWith(':')) continue; // keepalive
        if (acknowledgedAt === undefined) {
          acknowledgedAt = performance.now();
          const envelope = JSON.parse(frame.replace(/^data: /, '')) as {
            result?: { execution_id: string };
            error?: { message: string };
          };
          if (envelope.error || !envelope.result) throw new RpcError(`tasks.execute failed: ${frame.slice(0, 500)}`);
          executionId = envelope.result.execution_id;
          continue;
        }
        // Frames are `event: <type>\ndata: <json>`; only the final one is parsed.
        const type = frame.slice(7, frame.indexOf('\n'));
        events[type] = (events[type] ?? 0) + 1;
        if (type === 'final') {
          finalAt = performance.now();
          final = (JSON.parse(frame.slice(frame.indexOf('\n') + 7)) as { data: typeof final }).data;
        }
      }
      if (final) break;
    }
    if (!final || acknowledgedAt === undefined || finalAt === undefined || !executionId)
      throw new RpcError(`the event stream ended without a final event (events: ${JSON.stringify(events)})`);
    return { executionId, acknowledgedAt, finalAt, finalStatus: final.status ?? '?', finalError: final.error, events };
  }

  /** tasks.execute, then tasks.get on the root every `intervalMs` until it has finished. */
  async executePolling(taskId: string, intervalMs: number, timeoutMs: number): Promise<PollOutcome> {
    const started = await this.call<{ execution_id: string; root_task_id: string }>('tasks.execute', {
      task_id: taskId,
    });
    const acknowledgedAt = performance.now();
    const deadline = acknowledgedAt + timeoutMs;
    let polls = 0;
    for (;;) {
      const pollAt = performance.now();
      const task = await this.call<{ status: string; error: unknown }>('tasks.get', { task_id: started.root_task_id });
      polls++;
      if (['completed', 'failed', 'cancelled'].includes(task.status))
        return {
          executionId: started.execution_id,
          acknowledgedAt,
          finalAt: performance.now(),
          finalStatus: task.status,
          finalError: task.error,
          polls,
        };
      if (performance.now() > deadline)
        throw new RpcError(`the root is still ${task.status} after ${timeoutMs / 1000} s`);
      const wait = intervalMs - (performance.now() - pollAt);
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
}

export interface ExecuteOutcome {
  executionId: string;
  acknowledgedAt: number;
  finalAt: number;
  finalStatus: string;
  finalError: unknown;
}

export interface StreamOutcome extends ExecuteOutcome {
  /** Events received, by type (`final` included). */
  events: Record<string, number>;
}

export interface PollOutcome extends ExecuteOutcome {
  polls: number;
}
