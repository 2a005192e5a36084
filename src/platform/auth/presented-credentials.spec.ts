import type { IncomingMessage } from 'node:http';
import type { AppConfig } from '../config/app-config';
import { DomainError } from '../errors/domain-error';
import { ErrorCode } from '../errors/error-code';
import type { ApiKeyService } from './api-key.service';
import type { ConsoleSession, ConsoleSessions } from './console-sessions';
import { csrfTokenOf } from './console-sessions';
import { PresentedCredentials } from './presented-credentials';
import { Principal } from './principal';

const SESSION_ID = 'S'.repeat(43);
const byKey = new Principal('key-1', 'by-key', 'key-1', ['admin']);
const bySession = new Principal('key-2', 'by-session', 'key-2', ['agents:read']);

function credentials(): PresentedCredentials {
  const keys = {
    authorize: jest.fn(async (key: string | undefined) => {
      if (!key) throw new DomainError(ErrorCode.UNAUTHENTICATED, 'An API key is required');
      return byKey;
    }),
  } as unknown as ApiKeyService;
  const session: ConsoleSession = {
    id: SESSION_ID,
    principal: bySession,
    csrfToken: csrfTokenOf(SESSION_ID),
    createdAt: new Date(),
    expiresAt: new Date(Date.now() + 60_000),
  };
  const sessions = { find: jest.fn(async (id: string) => (id === SESSION_ID ? session : undefined)) };
  const config = { publicEndpoints: { trustProxy: false } } as AppConfig;
  return new PresentedCredentials(keys, sessions as unknown as ConsoleSessions, config);
}

const request = (method: string, headers: Record<string, string>) =>
  ({ method, headers, socket: {} }) as unknown as IncomingMessage;
const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => 'ok',
    (error: DomainError) => `${error.code}: ${error.message}`,
  );

describe('PresentedCredentials', () => {
  const cookie = `sb_console=${SESSION_ID}`;

  it('prefers an API key header to the cookie, with no CSRF check', async () => {
    const principal = await credentials().authorize(request('POST', { 'x-api-key': 'k', cookie }), []);
    expect(principal).toBe(byKey);
  });

  it('authenticates a read by cookie as the session key, with its scopes', async () => {
    expect(await credentials().authorize(request('GET', { cookie }), ['agents:read'])).toBe(bySession);
    expect(await codeOf(credentials().authorize(request('GET', { cookie }), ['admin']))).toMatch(/^FORBIDDEN: .*admin/);
  });

  it('needs the right X-CSRF-Token on writes by cookie', async () => {
    const c = credentials();
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      expect(await codeOf(c.authorize(request(method, { cookie }), []))).toMatch(/^FORBIDDEN: .*X-CSRF-Token.*missing/);
      expect(await codeOf(c.authorize(request(method, { cookie, 'x-csrf-token': 'nope' }), []))).toMatch(
        /^FORBIDDEN: .*X-CSRF-Token.*wrong/,
      );
      expect(await codeOf(c.authorize(request(method, { cookie, 'x-csrf-token': csrfTokenOf(SESSION_ID) }), []))).toBe(
        'ok',
      );
    }
  });

  it('refuses an unknown session, and a missing credential, as UNAUTHENTICATED', async () => {
    const unknown = request('GET', { cookie: 'sb_console=other' });
    expect(await codeOf(credentials().authorize(unknown, []))).toMatch(/^UNAUTHENTICATED: No console session/);
    expect(await codeOf(credentials().authorize(request('GET', {}), []))).toMatch(/^UNAUTHENTICATED/);
  });

  it('lets a WebSocket upgrade by cookie in only from the same origin', async () => {
    const upgrade = (origin?: string) =>
      request('GET', { cookie, upgrade: 'websocket', host: 'hub:8080', ...(origin ? { origin } : {}) });
    expect(await codeOf(credentials().authorize(upgrade('http://hub:8080'), []))).toBe('ok');
    expect(await codeOf(credentials().authorize(upgrade('http://evil:8080'), []))).toMatch(/^FORBIDDEN/);
    expect(await codeOf(credentials().authorize(upgrade('null'), []))).toMatch(/^FORBIDDEN/);
    expect(await codeOf(credentials().authorize(upgrade(), []))).toMatch(/^FORBIDDEN/);
  });

  it('derives a different CSRF token for each session id', () => {
    expect(csrfTokenOf(SESSION_ID)).not.toBe(csrfTokenOf('T'.repeat(43)));
    expect(csrfTokenOf(SESSION_ID)).toBe(csrfTokenOf(SESSION_ID));
  });
});
