/** Same-origin calls to the hub: the session cookie goes along, writes carry the CSRF token. */

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly body?: unknown,
  ) {
    super(message);
  }
}

let csrfToken: string | null = null;
let onUnauthorized: () => void = () => undefined;

export function setCsrfToken(token: string | null): void {
  csrfToken = token;
}

/** Called on any 401: the session is gone, back to sign-in. */
export function setUnauthorizedHandler(handler: () => void): void {
  onUnauthorized = handler;
}

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export function headersFor(method: string, extra: Record<string, string> = {}): Record<string, string> {
  const headers: Record<string, string> = { Accept: 'application/json', ...extra };
  if (WRITES.has(method) && csrfToken) headers['X-CSRF-Token'] = csrfToken;
  return headers;
}

/** The message of an error body: Nest's `{message}`, a JSON-RPC `{error: {message}}`, or the status. */
export function messageOf(body: unknown, status: number): string {
  if (body && typeof body === 'object') {
    const b = body as { message?: unknown; error?: { message?: unknown } | string };
    if (Array.isArray(b.message)) return b.message.join('; ');
    if (typeof b.message === 'string') return b.message;
    if (typeof b.error === 'object' && typeof b.error?.message === 'string') return b.error.message;
    if (typeof b.error === 'string') return b.error;
  }
  return `HTTP ${status}`;
}

/** Raises ApiError for a failed response; 401 also signs the console out (except for sign-in itself). */
export async function failure(res: Response, signOutOn401 = true): Promise<ApiError> {
  const body: unknown = await res.json().catch(() => undefined);
  if (res.status === 401 && signOutOn401) onUnauthorized();
  const message =
    res.status === 403
      ? `Not allowed: ${messageOf(body, res.status)} (this key's scopes do not cover it)`
      : messageOf(body, res.status);
  return new ApiError(res.status, message, body);
}

export interface RequestOptions {
  body?: unknown;
  signOutOn401?: boolean;
  signal?: AbortSignal;
}

export async function request<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
  const res = await fetch(path, {
    method,
    credentials: 'same-origin',
    headers: headersFor(method, options.body === undefined ? {} : { 'Content-Type': 'application/json' }),
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    signal: options.signal,
  });
  if (!res.ok) throw await failure(res, options.signOutOn401 ?? true);
  if (res.status === 204) return undefined as T;
  const text = await res.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

export const get = <T>(path: string, signal?: AbortSignal) => request<T>('GET', path, { signal });
export const post = <T>(path: string, body?: unknown) => request<T>('POST', path, { body: body ?? {} });
export const del = <T>(path: string) => request<T>('DELETE', path);
