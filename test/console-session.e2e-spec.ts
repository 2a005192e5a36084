import WebSocket from 'ws';
import { storageKey } from '../src/platform/auth/console-sessions';
import { KeyValueStore } from '../src/platform/kv/key-value-store';
import { RemoteAgent, startLightsAgent } from './support/remote-agents';
import { createApiKey, messageSend, registerAgent, startTestApp, TEST_ADMIN_KEY, TestApp } from './support/test-app';

/** The `sb_console=<id>` pair of a response's Set-Cookie, and the whole header line. */
function sessionCookie(res: { headers: Record<string, unknown> }): { pair: string; id: string; line: string } {
  const lines = (res.headers['set-cookie'] as string[] | undefined) ?? [];
  const line = lines.find((l) => l.startsWith('sb_console='));
  if (!line) throw new Error(`no sb_console cookie in ${JSON.stringify(lines)}`);
  const pair = line.split(';')[0];
  return { pair, id: pair.slice('sb_console='.length), line };
}

describe('Console sessions (e2e)', () => {
  let t: TestApp;
  let lights: RemoteAgent;

  beforeAll(async () => {
    t = await startTestApp({ ALLOW_PRIVATE_NETWORK_TARGETS: 'true', RATE_LIMIT_REGISTRY_PER_MIN: '1000' });
    lights = await startLightsAgent();
    await registerAgent(t, lights.baseUrl, 'lights');
  });
  afterAll(async () => {
    await t?.close();
    await lights?.close();
  });

  const signIn = async (apiKey: string) => {
    const res = await t.http().post('/api/console/session').send({ api_key: apiKey }).expect(201);
    return { res, cookie: sessionCookie(res), csrf: res.body.csrf_token as string };
  };

  it('signs in with the admin key: the key (not the key itself), scopes, a CSRF token and a strict cookie', async () => {
    const { res, cookie } = await signIn(TEST_ADMIN_KEY);
    expect(res.body).toEqual({
      key: { id: expect.any(String), name: 'ADMIN_API_KEY' },
      scopes: ['admin'],
      csrf_token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      expires_at: expect.any(String),
    });
    const hours = (Date.parse(res.body.expires_at) - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(11.9);
    expect(hours).toBeLessThanOrEqual(12);
    expect(JSON.stringify(res.body)).not.toContain(TEST_ADMIN_KEY);
    expect(cookie.id).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(cookie.id).not.toBe(res.body.csrf_token);
    expect(cookie.line).toMatch(/; HttpOnly/);
    expect(cookie.line).toMatch(/; SameSite=Strict/);
    expect(cookie.line).toMatch(/; Path=\//);
    expect(cookie.line).toMatch(/; Max-Age=43200/);
    expect(cookie.line).not.toMatch(/; Secure/);
  });

  it('marks the cookie Secure when the request came over https (through a trusted proxy)', async () => {
    const proxied = await startTestApp({ TRUST_PROXY: 'true' });
    try {
      const res = await proxied
        .http()
        .post('/api/console/session')
        .set('X-Forwarded-Proto', 'https')
        .send({ api_key: TEST_ADMIN_KEY })
        .expect(201);
      expect(sessionCookie(res).line).toMatch(/; Secure/);
    } finally {
      await proxied.close();
    }
  });

  it("signs in with a narrow key and returns that key's scopes", async () => {
    const narrow = await createApiKey(t, ['agents:read', 'messages'], { name: 'console-narrow' });
    const { res } = await signIn(narrow);
    expect(res.body.key.name).toBe('console-narrow');
    expect(res.body.scopes).toEqual(['agents:read', 'messages']);
  });

  it('refuses a wrong key with 401 and sets no cookie', async () => {
    const res = await t
      .http()
      .post('/api/console/session')
      .send({ api_key: 'sbk_AAAAAAAA_not-a-real-key-at-all-000000000000000000' })
      .expect(401);
    expect(res.body).toMatchObject({ statusCode: 401, code: 'UNAUTHENTICATED' });
    expect(res.headers['set-cookie']).toBeUndefined();
  });

  it.each([[{}], [{ api_key: 42 }], [{ api_key: '' }], [{ api_key: ['x'] }]])(
    'refuses a bad body %j with 400',
    async (body) => {
      const res = await t.http().post('/api/console/session').send(body).expect(400);
      expect(res.body).toMatchObject({ statusCode: 400 });
      expect(res.body.message).toMatch(/api_key/);
    },
  );

  it('refuses a body that is not JSON with a 4xx', async () => {
    const res = await t.http().post('/api/console/session').set('Content-Type', 'text/plain').send('key');
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
  });

  it('GET /api/console/session shows the session without a new cookie; 401 without one', async () => {
    const { res, cookie } = await signIn(TEST_ADMIN_KEY);
    const current = await t.http().get('/api/console/session').set('Cookie', cookie.pair).expect(200);
    expect(current.body).toEqual(res.body);
    expect(current.headers['set-cookie']).toBeUndefined();
    const none = await t.http().get('/api/console/session').expect(401);
    expect(none.body.code).toBe('UNAUTHENTICATED');
    const made = await t.http().get('/api/console/session').set('Cookie', 'sb_console=made-up').expect(401);
    expect(sessionCookie(made).line).toMatch(/sb_console=;/);
  });

  it('authenticates API calls by cookie; writes need the X-CSRF-Token', async () => {
    const { cookie, csrf } = await signIn(TEST_ADMIN_KEY);
    const agents = await t.http().get('/api/agents').set('Cookie', cookie.pair).expect(200);
    expect(JSON.stringify(agents.body)).toContain('lights');

    const body = { name: 'made-in-console', scopes: ['tasks'] };
    const missing = await t.http().post('/api/keys').set('Cookie', cookie.pair).send(body).expect(403);
    expect(missing.body).toMatchObject({ code: 'FORBIDDEN' });
    expect(missing.body.message).toMatch(/X-CSRF-Token.*missing/);
    const wrong = await t
      .http()
      .post('/api/keys')
      .set('Cookie', cookie.pair)
      .set('X-CSRF-Token', `${csrf.startsWith('A') ? 'B' : 'A'}${csrf.slice(1)}`)
      .send(body)
      .expect(403);
    expect(wrong.body.message).toMatch(/X-CSRF-Token.*wrong/);
    const made = await t
      .http()
      .post('/api/keys')
      .set('Cookie', cookie.pair)
      .set('X-CSRF-Token', csrf)
      .send(body)
      .expect(201);
    expect(made.body.name).toBe('made-in-console');
  });

  it('leaves API-key requests as they were: no CSRF token needed, the header wins over a cookie', async () => {
    const narrow = await createApiKey(t, ['agents:read'], { name: 'cookie-loser' });
    const { cookie } = await signIn(narrow);
    await t
      .http()
      .post('/api/keys')
      .set('X-Api-Key', TEST_ADMIN_KEY)
      .set('Cookie', cookie.pair)
      .send({ name: 'by-header', scopes: ['tasks'] })
      .expect(201);
  });

  it("enforces the key's scopes on its cookie: a narrow key gets 403 on an admin route", async () => {
    const narrow = await createApiKey(t, ['agents:read', 'messages'], { name: 'narrow-admin-try' });
    const { cookie, csrf } = await signIn(narrow);
    await t.http().get('/api/agents').set('Cookie', cookie.pair).expect(200);
    const keys = await t.http().get('/api/keys').set('Cookie', cookie.pair).expect(403);
    expect(keys.body).toMatchObject({ code: 'FORBIDDEN' });
    expect(keys.body.message).toMatch(/admin/);
    await t.http().post('/api/keys').set('Cookie', cookie.pair).set('X-CSRF-Token', csrf).send({}).expect(403);
  });

  it('talks to an agent over JSON-RPC with the cookie: message/send needs the CSRF token', async () => {
    const narrow = await createApiKey(t, ['agents:read', 'messages'], { name: 'console-talk' });
    const { cookie, csrf } = await signIn(narrow);
    const send = () =>
      t.http().post('/api/agents/lights/v1').set('Cookie', cookie.pair).send(messageSend('turn on the kitchen lights'));
    const refused = await send().expect(403);
    expect(refused.body.error).toMatchObject({ message: expect.stringMatching(/X-CSRF-Token.*missing/) });
    const res = await send().set('X-CSRF-Token', csrf).expect(200);
    expect(res.body.error).toBeUndefined();
    expect(res.body.result).toBeDefined();
    expect(JSON.stringify(res.body.result)).toMatch(/kitchen/i);
  });

  it('calls the task-tree API with the cookie and the CSRF token', async () => {
    const { cookie, csrf } = await signIn(TEST_ADMIN_KEY);
    const body = { jsonrpc: '2.0', id: 3, method: 'tasks.list', params: {} };
    const refused = await t.http().post('/tasks').set('Cookie', cookie.pair).send(body);
    expect(refused.status).toBe(403);
    const res = await t
      .http()
      .post('/tasks')
      .set('Cookie', cookie.pair)
      .set('X-CSRF-Token', csrf)
      .send(body)
      .expect(200);
    expect(res.body).toMatchObject({ jsonrpc: '2.0', id: 3, result: expect.anything() });
  });

  it('opens the task WebSocket with the cookie from the hub itself, never from another origin', async () => {
    const { cookie } = await signIn(TEST_ADMIN_KEY);
    const host = new URL(t.baseUrl).host;
    const open = (headers: Record<string, string>) =>
      new Promise<number>((resolve, reject) => {
        const socket = new WebSocket(`${t.baseUrl.replace('http', 'ws')}/tasks/ws`, { headers });
        socket.once('open', () => {
          socket.close();
          resolve(101);
        });
        socket.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
        socket.once('error', reject);
      });
    expect(await open({ Cookie: cookie.pair, Origin: `http://${host}` })).toBe(101);
    expect(await open({ Cookie: cookie.pair, Origin: 'https://evil.example' })).toBe(403);
    expect(await open({ Cookie: cookie.pair })).toBe(403);
    expect(await open({ Cookie: 'sb_console=made-up', Origin: `http://${host}` })).toBe(401);
  });

  it('revoking the key signs its console out: 401 and the cookie cleared', async () => {
    const created = await t
      .http()
      .post('/api/keys')
      .set('X-Api-Key', TEST_ADMIN_KEY)
      .send({ name: 'to-revoke', scopes: ['agents:read'] })
      .expect(201);
    const { cookie } = await signIn(created.body.key);
    await t.http().get('/api/agents').set('Cookie', cookie.pair).expect(200);
    await t.http().delete(`/api/keys/${created.body.id}`).set('X-Api-Key', TEST_ADMIN_KEY).expect(200);
    const after = await t.http().get('/api/agents').set('Cookie', cookie.pair).expect(401);
    expect(after.body.code).toBe('UNAUTHENTICATED');
    expect(sessionCookie(after).line).toMatch(/^sb_console=;.*Expires=Thu, 01 Jan 1970/);
    await t.http().get('/api/console/session').set('Cookie', cookie.pair).expect(401);
    expect(await t.app.get(KeyValueStore).get(storageKey(cookie.id))).toBeNull();
  });

  it('DELETE signs out (with the CSRF token): the session is gone and the cookie cleared', async () => {
    const { cookie, csrf } = await signIn(TEST_ADMIN_KEY);
    await t.http().delete('/api/console/session').set('Cookie', cookie.pair).expect(403);
    const out = await t
      .http()
      .delete('/api/console/session')
      .set('Cookie', cookie.pair)
      .set('X-CSRF-Token', csrf)
      .expect(204);
    expect(sessionCookie(out).line).toMatch(/^sb_console=;/);
    await t.http().get('/api/console/session').set('Cookie', cookie.pair).expect(401);
    await t.http().get('/api/agents').set('Cookie', cookie.pair).expect(401);
  });

  it('keeps no session id or CSRF token in clear in the key-value store', async () => {
    const { cookie, csrf } = await signIn(TEST_ADMIN_KEY);
    const kv = t.app.get(KeyValueStore);
    expect(await kv.get(cookie.id)).toBeNull();
    expect(await kv.get(`console-session:${cookie.id}`)).toBeNull();
    const stored = await kv.get(storageKey(cookie.id));
    expect(stored).not.toBeNull();
    expect(storageKey(cookie.id)).not.toContain(cookie.id);
    expect(stored!.value).not.toContain(cookie.id);
    expect(stored!.value).not.toContain(csrf);
    expect(JSON.parse(stored!.value)).toMatchObject({ keyId: expect.any(String), scopes: ['admin'] });
  });
});

describe('Console sign-in rate limit (e2e)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_REGISTRY_PER_MIN: '2' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('counts sign-ins by address against the registry limit: 429 with Retry-After past it', async () => {
    const attempt = (apiKey: string) => t.http().post('/api/console/session').send({ api_key: apiKey });
    expect((await attempt('sbk_AAAAAAAA_wrong-wrong-wrong-wrong-wrong-wrong-00')).status).toBe(401);
    const ok = await attempt(TEST_ADMIN_KEY).expect(201);
    expect(ok.headers['x-ratelimit-limit']).toBe('2');
    const refused = await attempt(TEST_ADMIN_KEY).expect(429);
    expect(refused.body).toMatchObject({ code: 'RATE_LIMITED' });
    expect(refused.headers['retry-after']).toMatch(/^\d+$/);
    expect(refused.headers['set-cookie']).toBeUndefined();
  });
});
