import { OutboundHttp } from '../../platform/net/outbound-http';
import { outboundFailureReason } from '../../platform/net/outbound-failures';
import { abortError, setting, TaskExecutor, TaskFailure, TaskRunContext, textSetting } from './task-executor';

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE']);
const DEFAULT_MAX_RESPONSE_BYTES = 1024 * 1024;
const MAX_RESPONSE_BYTES = 10 * 1024 * 1024;

/**
 * An HTTP request through the hub's SSRF-guarded client. Inputs (or params): `url`, `method`
 * (GET), `headers`, `body` (JSON unless a string), `timeout_ms` (at most the outbound timeout),
 * `max_response_bytes` (1 MiB, at most 10 MiB). A non-2xx answer fails the task. Result:
 * `{status, headers, body}` with a JSON body parsed.
 */
export class HttpRequestExecutor implements TaskExecutor {
  readonly id = 'http.request';
  readonly description = 'An HTTP request (SSRF-guarded, time and size limited); the result is {status, headers, body}';

  constructor(private readonly http: OutboundHttp) {}

  async execute(context: TaskRunContext): Promise<unknown> {
    const url = setting(context, 'url');
    if (typeof url !== 'string') throw new TaskFailure('http.request needs a `url` input');
    const method = (textSetting(context, 'method') ?? 'GET').toUpperCase();
    if (!METHODS.has(method)) throw new TaskFailure(`http.request: unsupported method ${method}`);
    const headers = stringRecord(setting(context, 'headers'));
    const maxBytes = bounded(setting(context, 'max_response_bytes'), DEFAULT_MAX_RESPONSE_BYTES, MAX_RESPONSE_BYTES);
    const timeoutMs = bounded(setting(context, 'timeout_ms'), this.http.policy.timeoutMs, this.http.policy.timeoutMs);
    const rawBody = setting(context, 'body');
    let body: string | undefined;
    if (rawBody !== undefined && method !== 'GET' && method !== 'HEAD') {
      body = typeof rawBody === 'string' ? rawBody : JSON.stringify(rawBody);
      if (typeof rawBody !== 'string' && !hasHeader(headers, 'content-type'))
        headers['Content-Type'] = 'application/json';
    }
    const signal = AbortSignal.any([context.signal, AbortSignal.timeout(timeoutMs)]);
    let response: Response;
    try {
      response = await this.http.fetch(url, { method, headers, body, signal, redirect: 'manual' });
    } catch (error) {
      if (context.signal.aborted) throw abortError(context.signal);
      throw new TaskFailure(`http.request to ${origin(url)} failed: ${outboundFailureReason(error)}`);
    }
    const text = await readLimited(response, maxBytes, signal).catch((error: Error) => {
      if (context.signal.aborted) throw abortError(context.signal);
      throw new TaskFailure(`http.request to ${origin(url)}: ${error.message}`);
    });
    if (!response.ok) throw new TaskFailure(`http.request to ${origin(url)} answered HTTP ${response.status}`);
    const isJson = /\bjson\b/i.test(response.headers.get('content-type') ?? '');
    return {
      status: response.status,
      headers: Object.fromEntries(response.headers),
      body: isJson && text !== '' ? parse(text) : text,
    };
  }
}

async function readLimited(response: Response, maxBytes: number, signal: AbortSignal): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    if (signal.aborted) {
      void reader.cancel().catch(() => undefined);
      throw new Error('timed out reading the response');
    }
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      void reader.cancel().catch(() => undefined);
      throw new Error(`the response is larger than ${maxBytes} bytes`);
    }
    chunks.push(value);
  }
  return new TextDecoder('utf-8').decode(Buffer.concat(chunks, total));
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function stringRecord(value: unknown): Record<string, string> {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value))
    throw new TaskFailure('http.request: `headers` must be an object');
  return Object.fromEntries(Object.entries(value).map(([name, v]) => [name, String(v)]));
}

function hasHeader(headers: Record<string, string>, name: string): boolean {
  return Object.keys(headers).some((key) => key.toLowerCase() === name);
}

function bounded(value: unknown, fallback: number, max: number): number {
  if (value === undefined || value === null) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1)
    throw new TaskFailure(`http.request: expected a positive integer, got ${JSON.stringify(value)}`);
  return Math.min(n, max);
}

function origin(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return 'an invalid URL';
  }
}
