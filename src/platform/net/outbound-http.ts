import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { Agent, buildConnector, Dispatcher, fetch as undiciFetch } from 'undici';
import { VERSION } from '../../paths';
import { answerOf, discard, responseTooLarge } from './dispatch-answer';
import { fetchResponse } from './fetch-response';
import { DomainError, isDomainError } from '../errors/domain-error';
import { ErrorCode } from '../errors/error-code';
import { bareAddress, checkAddress, checkHostName, type OutboundPolicy } from './outbound-policy';

export interface GetJsonOptions {
  /** Whole request, body included. Default: the policy's `timeoutMs`. */
  timeoutMs?: number;
  /** Default: the policy's `maxResponseBytes`. */
  maxResponseBytes?: number;
  /** `Accept: application/json` is sent unless given here. */
  headers?: Record<string, string>;
  /**
   * Credentials to send with the request. They go only to the URL's own origin: redirects are
   * then not followed (a 3xx comes back as the answer), so a redirect cannot carry them elsewhere.
   */
  credentials?: Record<string, string>;
  signal?: AbortSignal;
}

export interface JsonResponse {
  status: number;
  /** The final URL, after redirects. */
  url: string;
  /** The parsed JSON. For a non-2xx answer whose body is not JSON: the body as text. */
  body: unknown;
  headers: Headers;
}

type FetchInput = Parameters<typeof fetch>[0];

/**
 * The one HTTP client for server-to-server calls (agent cards, remote agents, webhooks), guarded
 * against SSRF: every connection, including each redirect hop, goes to an address that passed the
 * policy. The host name is resolved once per connection, every resolved address is checked, and
 * the socket is opened to the checked address itself, so a second DNS answer cannot swap in
 * another (no TOCTOU). TLS SNI and the Host header keep the original host name.
 *
 * Failures are DomainErrors: a refused address is VALIDATION_FAILED with `details.address` and
 * `details.reason`; network failures are UPSTREAM_FAILED / UPSTREAM_TIMEOUT with `details.reason`
 * (see `outboundFailureReason`). `fetch` rejects with that DomainError itself, not with fetch's
 * usual `TypeError('fetch failed')` (which stays reachable as its `cause`); a caller's own abort
 * still rejects with the signal's reason (an `AbortError`), as fetch does.
 */
export class OutboundHttp {
  /**
   * A drop-in `fetch` (e.g. the A2A SDK's `fetchImpl`). `timeoutMs` bounds connecting and
   * receiving the response headers, across redirects, and reading the body of any answer that is
   * not a server-sent event stream (those are read in full before fetch resolves; see
   * fetchResponse); event streams may stream for as long as the caller reads them (undici's idle
   * timeout between body chunks, 300 s, still applies). A body read in full larger than the
   * policy's `maxAnswerBytes` (decoded) is refused: fetch rejects with an UPSTREAM_FAILED
   * DomainError whose reason is 'response too large'. Event streams are not capped, nor is the
   * answer to a request only undici's fetch can make (a streamed request body; see dispatchable).
   */
  readonly fetch: typeof fetch;

  private readonly agent: Agent;
  private readonly baseConnect: buildConnector.connector;

  constructor(readonly policy: OutboundPolicy) {
    this.baseConnect = buildConnector({ timeout: policy.timeoutMs });
    this.agent = new Agent({ connect: (options, callback) => this.connect(options, callback) });
    this.fetch = (input, init) => this.request(input, init, policy.timeoutMs, policy.maxAnswerBytes);
  }

  /**
   * Sends a request and answers its status, the body dropped unread (a webhook's reply): it is
   * not read into memory, so no size limit applies. Redirects are not followed (a 3xx is the
   * status); `timeoutMs` bounds connecting and the response headers. Failures are as `fetch`'s.
   */
  async statusOf(
    url: string,
    init: { method: string; headers?: Record<string, string>; body?: string },
  ): Promise<number> {
    const target = this.checkTarget(url);
    return this.withDeadline(target.origin, this.policy.timeoutMs, undefined, async (signal) => {
      const answer = await answerOf(
        this.agent,
        {
          origin: target.origin,
          path: `${target.pathname}${target.search}`,
          method: init.method as Dispatcher.HttpMethod,
          headers: withDefaultHeaders(init.headers, init.body),
          body: init.body ?? null,
          signal,
        },
        undefined,
      );
      discard(answer);
      return answer.statusCode;
    });
  }

  /** GETs a JSON document (an agent card), refusing bodies larger than `maxResponseBytes`. */
  async getJson(url: string | URL, options: GetJsonOptions = {}): Promise<JsonResponse> {
    const timeoutMs = options.timeoutMs ?? this.policy.timeoutMs;
    const maxBytes = options.maxResponseBytes ?? this.policy.maxResponseBytes;
    const target = this.checkTarget(typeof url === 'string' ? url : url.href);
    const headers = new Headers({ ...options.headers, ...options.credentials });
    if (!headers.has('accept')) headers.set('accept', 'application/json');
    const redirect = options.credentials && Object.keys(options.credentials).length ? 'manual' : 'follow';
    return this.withDeadline(target.origin, timeoutMs, options.signal, async (signal) => {
      const response = await this.request(target.href, { headers, signal, redirect }, undefined, undefined);
      const text = await readText(response, maxBytes, target.origin);
      return {
        status: response.status,
        url: response.url,
        body: parseJson(text, response, target.origin),
        headers: response.headers,
      };
    });
  }

  /** Closes every pooled connection and aborts requests in flight (streams included). */
  async close(): Promise<void> {
    await this.agent.destroy();
  }

  /**
   * With `maxBufferedBytes`, a body that is not an event stream is read, up to that size, before
   * resolving (see fetchResponse); without it the body streams.
   */
  private async request(
    input: FetchInput,
    init: RequestInit | undefined,
    timeoutMs: number | undefined,
    maxBufferedBytes: number | undefined,
  ): Promise<Response> {
    const { url, init: requestInit } = splitInput(input, init);
    const target = this.checkTarget(url);
    const headers = withDefaultHeaders(requestInit.headers, requestInit.body);
    return this.withDeadline(target.origin, timeoutMs, requestInit.signal, (signal) =>
      dispatchable(target, requestInit)
        ? this.dispatch(target, requestInit, headers, signal, maxBufferedBytes)
        : // undici's own fetch, not the global one: Node's bundled undici is another copy, and mixing
          // a dispatcher from one copy with fetch from another is unsupported.
          undiciFetch(target.href, { ...requestInit, headers, signal, dispatcher: this.agent }),
    );
  }

  /**
   * Runs `call` with a signal that aborts at `timeoutMs` (when given) or with the caller's, and
   * turns what it throws into DomainErrors (toOutboundError).
   */
  private async withDeadline<T>(
    origin: string,
    timeoutMs: number | undefined,
    callerSignal: AbortSignal | null | undefined,
    call: (signal: AbortSignal) => Promise<T>,
  ): Promise<T> {
    const deadline = new AbortController();
    const timer =
      timeoutMs === undefined
        ? undefined
        : setTimeout(() => deadline.abort(timeoutError(origin, timeoutMs)), timeoutMs);
    const signal = callerSignal ? AbortSignal.any([callerSignal, deadline.signal]) : deadline.signal;
    try {
      return await call(signal);
    } catch (error) {
      throw toOutboundError(error, origin);
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * The request through undici's dispatcher API, answered as a fetch Response. It is several
   * times cheaper than undici's fetch (no WHATWG Request, no streams around a string body, no
   * copy of it kept for redirects): every message to a remote agent goes this way. Redirects are
   * handled as the Fetch standard says - followed (at most 20, each target checked like the
   * first; 303, and 301/302 after a POST, turn into a GET without a body; Authorization is not
   * sent to another origin), handed back as they are (`manual`) or refused (`error`).
   */
  private async dispatch(
    target: URL,
    init: RequestInit,
    headers: Record<string, string>,
    signal: AbortSignal,
    maxBufferedBytes: number | undefined,
  ): Promise<Response> {
    let url = target;
    let method = (init.method ?? 'GET').toUpperCase();
    let body = (init.body ?? null) as string | Uint8Array | null;
    for (let redirects = 0; ; redirects++) {
      const answer = await answerOf(
        this.agent,
        {
          origin: url.origin,
          path: `${url.pathname}${url.search}`,
          method: method as Dispatcher.HttpMethod,
          headers,
          body,
          signal,
        },
        maxBufferedBytes,
      );
      const location = REDIRECT_STATUSES.has(answer.statusCode) ? firstValue(answer.headers.location) : undefined;
      if (location === undefined || init.redirect === 'manual') {
        return await fetchResponse(answer, url.href, method, redirects > 0, maxBufferedBytes);
      }
      discard(answer);
      if (init.redirect === 'error') throw new TypeError('fetch failed', { cause: new Error('unexpected redirect') });
      if (redirects >= MAX_REDIRECTS)
        throw new TypeError('fetch failed', { cause: new Error('redirect count exceeded') });
      const next = this.checkTarget(new URL(location, url).href);
      if (
        answer.statusCode === 303
          ? method !== 'HEAD'
          : (answer.statusCode === 301 || answer.statusCode === 302) && method === 'POST'
      ) {
        method = 'GET';
        body = null;
        for (const name of BODY_HEADERS) delete headers[name];
      }
      if (next.origin !== url.origin) delete headers.authorization;
      url = next;
    }
  }

  /**
   * Whether the hub may call this URL now: the scheme, and every address its host resolves to,
   * against the policy (the same checks each connection makes). For targets registered now and
   * called later, such as webhooks; the connection is still checked again when it is made.
   */
  async assertAllowed(url: string): Promise<void> {
    const target = this.checkTarget(url);
    const host = bareAddress(target.hostname);
    if (!isIP(host)) await this.resolveChecked(host);
  }

  /** URL and scheme checks, plus IP literals and metadata names refused before any network use. */
  private checkTarget(url: string): URL {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      throw new DomainError(ErrorCode.VALIDATION_FAILED, 'Invalid URL', { details: { reason: 'invalid URL' } });
    }
    if (target.protocol !== 'http:' && target.protocol !== 'https:') {
      throw new DomainError(
        ErrorCode.VALIDATION_FAILED,
        `Unsupported URL scheme ${target.protocol} (only http: and https: are allowed)`,
        { details: { reason: 'unsupported URL scheme' } },
      );
    }
    const host = bareAddress(target.hostname);
    const verdict = isIP(host) ? checkAddress(host, this.policy) : checkHostName(host);
    if (!verdict.allowed) throw refused(host, verdict.reason);
    return target;
  }

  /** undici's connect hook: resolve, check every address, then connect to a checked one. */
  private connect(options: buildConnector.Options, callback: buildConnector.Callback): void {
    const host = bareAddress(options.hostname);
    this.resolveChecked(host).then(
      (addresses) => this.connectTo(addresses, 0, host, options, callback),
      (error: Error) => callback(error, null),
    );
  }

  private async resolveChecked(host: string): Promise<string[]> {
    const nameVerdict = checkHostName(host);
    if (!nameVerdict.allowed) throw refused(host, nameVerdict.reason);
    let addresses: string[];
    if (isIP(host)) {
      addresses = [host];
    } else {
      try {
        addresses = (await lookup(host, { all: true })).map((entry) => entry.address);
      } catch (error) {
        const reason = knownFailure(error)?.reason ?? 'host not found';
        throw new DomainError(ErrorCode.UPSTREAM_FAILED, `Could not resolve ${host}: ${reason}`, {
          details: { host, reason },
          cause: error,
        });
      }
      if (addresses.length === 0) {
        throw new DomainError(ErrorCode.UPSTREAM_FAILED, `Could not resolve ${host}: host not found`, {
          details: { host, reason: 'host not found' },
        });
      }
    }
    // Every address must pass: a name answering with one public and one private address is refused.
    for (const address of addresses) {
      const verdict = checkAddress(address, this.policy);
      if (!verdict.allowed) throw refused(address, verdict.reason);
    }
    return addresses;
  }

  /** Tries the checked addresses in order (e.g. ::1 then 127.0.0.1) while they refuse the connection. */
  private connectTo(
    addresses: string[],
    index: number,
    host: string,
    options: buildConnector.Options,
    callback: buildConnector.Callback,
  ): void {
    const pinned: buildConnector.Options = {
      ...options,
      hostname: addresses[index],
      servername: options.servername ?? (isIP(host) ? undefined : host),
    };
    try {
      this.baseConnect(pinned, (error, socket) => {
        if (error === null) return callback(null, socket);
        if (index + 1 < addresses.length && TRY_NEXT_ADDRESS.has(errorCode(error))) {
          return this.connectTo(addresses, index + 1, host, options, callback);
        }
        callback(error, null);
      });
    } catch (error) {
      // A synchronous throw here would otherwise leave the request waiting forever.
      callback(error instanceof Error ? error : new Error(String(error)), null);
    }
  }
}

const TRY_NEXT_ADDRESS = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL']);

interface Failure {
  code: ErrorCode.UPSTREAM_FAILED | ErrorCode.UPSTREAM_TIMEOUT;
  reason: string;
}

const FAILURES: Record<string, Failure> = {
  ECONNREFUSED: { code: ErrorCode.UPSTREAM_FAILED, reason: 'connection refused' },
  ECONNRESET: { code: ErrorCode.UPSTREAM_FAILED, reason: 'connection reset' },
  EPIPE: { code: ErrorCode.UPSTREAM_FAILED, reason: 'connection reset' },
  UND_ERR_SOCKET: { code: ErrorCode.UPSTREAM_FAILED, reason: 'connection closed' },
  EHOSTUNREACH: { code: ErrorCode.UPSTREAM_FAILED, reason: 'host unreachable' },
  ENETUNREACH: { code: ErrorCode.UPSTREAM_FAILED, reason: 'host unreachable' },
  EHOSTDOWN: { code: ErrorCode.UPSTREAM_FAILED, reason: 'host unreachable' },
  ENOTFOUND: { code: ErrorCode.UPSTREAM_FAILED, reason: 'host not found' },
  // The resolver could not answer now (no DNS server reachable, SERVFAIL): the name may well exist.
  EAI_AGAIN: { code: ErrorCode.UPSTREAM_FAILED, reason: 'DNS lookup failed, try again' },
  UND_ERR_RES_EXCEEDED_MAX_SIZE: { code: ErrorCode.UPSTREAM_FAILED, reason: 'response too large' },
  ETIMEDOUT: { code: ErrorCode.UPSTREAM_TIMEOUT, reason: 'timeout' },
  UND_ERR_CONNECT_TIMEOUT: { code: ErrorCode.UPSTREAM_TIMEOUT, reason: 'timeout' },
  UND_ERR_HEADERS_TIMEOUT: { code: ErrorCode.UPSTREAM_TIMEOUT, reason: 'timeout' },
  UND_ERR_BODY_TIMEOUT: { code: ErrorCode.UPSTREAM_TIMEOUT, reason: 'timeout' },
};

/** A network error from node or undici, by its `code` (TLS ones by pattern), or undefined. */
function knownFailure(error: unknown): Failure | undefined {
  const code = errorCode(error);
  if (FAILURES[code]) return FAILURES[code];
  if (/^ERR_(TLS|SSL)_|CERT|SELF_SIGNED/.test(code)) return { code: ErrorCode.UPSTREAM_FAILED, reason: 'TLS failure' };
  if (field(error, 'message') === 'redirect count exceeded') {
    return { code: ErrorCode.UPSTREAM_FAILED, reason: 'too many redirects' };
  }
  return undefined;
}

/**
 * The short reason an outbound call failed ('connection refused', 'timeout', 'host not found',
 * 'response too large', a refusal's reason, ...), for messages such as
 * "Failed to resolve agent card: connection refused". Looks through `cause` chains, so it also
 * reads errors that reached the caller wrapped (by fetch's TypeError, by the A2A SDK).
 */
export function outboundFailureReason(error: unknown): string {
  let current: unknown = error;
  for (let depth = 0; depth < 8 && current !== undefined && current !== null; depth++) {
    if (isDomainError(current) && typeof current.details?.reason === 'string') return current.details.reason;
    if (field(current, 'name') === 'AbortError') return 'aborted';
    if (field(current, 'name') === 'TimeoutError') return 'timeout';
    const failure = knownFailure(current);
    if (failure) return failure.reason;
    current = (current as { cause?: unknown }).cause;
  }
  return 'request failed';
}

/**
 * Turns what fetch or a body read threw into a DomainError. A DomainError anywhere in the cause
 * chain wins (refusals, our timeouts); a caller's abort passes through untouched; errors that are
 * not network failures (e.g. an invalid header from the caller) are rethrown as they are.
 */
function toOutboundError(error: unknown, origin: string): unknown {
  if (isDomainError(error)) return error;
  const name = field(error, 'name');
  if (name === 'AbortError' || name === 'TimeoutError') return error;
  let current: unknown = error;
  for (let depth = 0; depth < 8 && typeof current === 'object' && current !== null; depth++) {
    if (isDomainError(current)) return current;
    const failure = knownFailure(current);
    if (failure) {
      const summary =
        failure.code === ErrorCode.UPSTREAM_TIMEOUT
          ? `Request to ${origin} timed out`
          : `Request to ${origin} failed: ${failure.reason}`;
      return new DomainError(failure.code, summary, { details: { url: origin, reason: failure.reason }, cause: error });
    }
    current = (current as { cause?: unknown }).cause;
  }
  const message = field(error, 'message');
  if (name === 'TypeError' && (message === 'fetch failed' || message === 'terminated')) {
    return new DomainError(ErrorCode.UPSTREAM_FAILED, `Request to ${origin} failed`, {
      details: { url: origin, reason: 'request failed' },
      cause: error,
    });
  }
  return error;
}

function refused(address: string, reason: string): DomainError {
  return new DomainError(ErrorCode.VALIDATION_FAILED, `Refusing to connect to ${address}: ${reason}`, {
    details: { address, reason },
  });
}

function timeoutError(origin: string, timeoutMs: number): DomainError {
  return new DomainError(ErrorCode.UPSTREAM_TIMEOUT, `Request to ${origin} timed out after ${timeoutMs} ms`, {
    details: { url: origin, reason: 'timeout', timeoutMs },
  });
}

function errorCode(error: unknown): string {
  return field(error, 'code') ?? '';
}

/**
 * A string property of a thrown value. Duck-typed rather than `instanceof Error`: errors made by
 * Node core (socket errors, DOMException aborts) may come from another realm (e.g. under jest).
 */
function field(value: unknown, key: 'name' | 'message' | 'code'): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const property = (value as Record<string, unknown>)[key];
  return typeof property === 'string' ? property : undefined;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const MAX_REDIRECTS = 20;
/** What a redirect that drops the body drops with it. */
const BODY_HEADERS = ['content-type', 'content-length', 'content-encoding', 'content-language', 'content-location'];
const USER_AGENT = `switchboard/${VERSION}`;

/**
 * Whether the dispatcher API can make this request as fetch would: a body it can send again
 * (after a 307/308) and no credentials in the URL (which fetch refuses). Streamed bodies go to
 * fetch.
 */
function dispatchable(target: URL, init: RequestInit): boolean {
  const body = init.body;
  const replayable = body === undefined || body === null || typeof body === 'string' || ArrayBuffer.isView(body);
  return replayable && !target.username && !target.password;
}

/**
 * The caller's headers as one record, with what fetch would add when they are absent: Accept, a
 * Content-Type for a string body, and a User-Agent naming the hub.
 */
function withDefaultHeaders(init: RequestInit['headers'], body: RequestInit['body']): Record<string, string> {
  const headers: Record<string, string> = {};
  const add = (name: string, value: string) => {
    const key = name.toLowerCase();
    headers[key] = key in headers ? `${headers[key]}, ${value}` : value;
  };
  if (Array.isArray(init)) for (const [name, value] of init) add(name, value);
  else if (init && typeof (init as Headers).forEach === 'function')
    (init as Headers).forEach((value, name) => add(name, value));
  else if (init) for (const [name, value] of Object.entries(init as Record<string, string>)) add(name, value);
  headers.accept ??= '*/*';
  headers['user-agent'] ??= USER_AGENT;
  if (typeof body === 'string') headers['content-type'] ??= 'text/plain;charset=UTF-8';
  return headers;
}

function firstValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** fetch takes a URL string, a URL or a Request; a Request is unpacked so undici's fetch accepts it. */
function splitInput(input: FetchInput, init: RequestInit | undefined): { url: string; init: RequestInit } {
  if (typeof input === 'string') return { url: input, init: init ?? {} };
  if (!('method' in input)) return { url: input.href, init: init ?? {} };
  return {
    url: input.url,
    init: {
      method: input.method,
      headers: input.headers,
      body: input.body,
      redirect: input.redirect,
      signal: input.signal,
      ...(input.body ? { duplex: 'half' } : {}),
      ...init,
    },
  };
}

/** Reads the body as UTF-8, counting bytes as they arrive: Content-Length is not trusted. */
async function readText(response: Response, maxBytes: number, origin: string): Promise<string> {
  const tooLarge = (): DomainError => responseTooLarge(origin, maxBytes);
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  // With Content-Encoding the declared size is the compressed one; only the decoded bytes count.
  if (!response.headers.has('content-encoding') && declared > maxBytes) {
    void response.body?.cancel().catch(() => undefined);
    throw tooLarge();
  }
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      void reader.cancel().catch(() => undefined);
      throw tooLarge();
    }
    chunks.push(value);
  }
  const bytes = Buffer.concat(chunks, total);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    // An error page may be in any charset; only a successful answer must be JSON.
    if (!response.ok) return new TextDecoder('utf-8').decode(bytes);
    throw notJson(response, origin, 'the body is not UTF-8');
  }
}

function parseJson(text: string, response: Response, origin: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    if (!response.ok) return text;
    throw notJson(response, origin, text.trim() === '' ? 'the body is empty' : (error as Error).message);
  }
}

function notJson(response: Response, origin: string, problem: string): DomainError {
  const contentType = response.headers.get('content-type') ?? 'none';
  return new DomainError(
    ErrorCode.UPSTREAM_FAILED,
    `Response from ${origin} is not JSON (HTTP ${response.status}, content-type ${contentType}): ${problem}`,
    { details: { url: origin, reason: 'invalid JSON', status: response.status, contentType } },
  );
}
