import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { Agent, buildConnector, Dispatcher, fetch as undiciFetch } from 'undici';
import { answerOf, discard } from './dispatch-answer';
import { fetchResponse } from './fetch-response';
import { DomainError } from '../errors/domain-error';
import { ErrorCode } from '../errors/error-code';
import { readText, parseJson } from './json-answer';
import { errorCode, knownFailure, refused, timeoutError, toOutboundError, TRY_NEXT_ADDRESS } from './outbound-failures';
import { bareAddress, checkAddress, checkHostName, type OutboundPolicy } from './outbound-policy';
import {
  BODY_HEADERS,
  dispatchable,
  type FetchInput,
  firstValue,
  MAX_REDIRECTS,
  REDIRECT_STATUSES,
  splitInput,
  withDefaultHeaders,
} from './outbound-request';

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
