import { VERSION } from '../../paths';

/*
 * A request as OutboundHttp sends it: the headers fetch would add, what a redirect keeps, and
 * which requests the dispatcher API can make as fetch would.
 */

/** What `fetch` takes as its first argument. */
export type FetchInput = Parameters<typeof fetch>[0];

/** Redirects followed as the Fetch standard says, at most MAX_REDIRECTS of them. */
export const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
export const MAX_REDIRECTS = 20;
/** What a redirect that drops the body drops with it. */
export const BODY_HEADERS = [
  'content-type',
  'content-length',
  'content-encoding',
  'content-language',
  'content-location',
];
const USER_AGENT = `switchboard/${VERSION}`;

/**
 * Whether the dispatcher API can make this request as fetch would: a body it can send again
 * (after a 307/308) and no credentials in the URL (which fetch refuses). Streamed bodies go to
 * fetch.
 */
export function dispatchable(target: URL, init: RequestInit): boolean {
  const body = init.body;
  const replayable = body === undefined || body === null || typeof body === 'string' || ArrayBuffer.isView(body);
  return replayable && !target.username && !target.password;
}

/**
 * The caller's headers as one record, with what fetch would add when they are absent: Accept, a
 * Content-Type for a string body, and a User-Agent naming the hub.
 */
export function withDefaultHeaders(init: RequestInit['headers'], body: RequestInit['body']): Record<string, string> {
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

export function firstValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** fetch takes a URL string, a URL or a Request; a Request is unpacked so undici's fetch accepts it. */
export function splitInput(input: FetchInput, init: RequestInit | undefined): { url: string; init: RequestInit } {
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
