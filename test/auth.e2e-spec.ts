import { status as GrpcStatus } from '@grpc/grpc-js';
import { DataSource } from 'typeorm';
import { call, systemClient, SystemClient } from './support/grpc-clients';
import { startTestApp, TEST_ADMIN_KEY, TestApp } from './support/test-app';

describe('API-key authentication (e2e)', () => {
  let t: TestApp;
  let grpcSystem: SystemClient;

  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_REGISTRY_PER_MIN: '1000' });
    grpcSystem = systemClient(t.grpcAddress);
  });
  afterAll(async () => {
    grpcSystem?.close();
    await t?.close();
  });

  const createKey = async (body: Record<string, unknown>) =>
    t.http().post('/api/keys').set('X-Api-Key', TEST_ADMIN_KEY).send(body).expect(201);

  describe('over HTTP', () => {
    it('refuses a request without a key with 401 JSON and a WWW-Authenticate challenge', async () => {
      const res = await t.http().get('/api/system').expect(401);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.headers['www-authenticate']).toBe('Bearer realm="switchboard"');
      expect(res.body).toMatchObject({ statusCode: 401, code: 'UNAUTHENTICATED' });
      expect(res.body.message).toMatch(/X-Api-Key/);
    });

    it('refuses an unknown key with 401', async () => {
      const res = await t
        .http()
        .get('/api/system')
        .set('X-Api-Key', 'sbk_AAAAAAAA_not-a-real-key-at-all-000000000000000000')
        .expect(401);
      expect(res.body.code).toBe('UNAUTHENTICATED');
    });

    it('accepts the key as X-Api-Key or as a Bearer token', async () => {
      const viaHeader = await t.http().get('/api/system').set('X-Api-Key', TEST_ADMIN_KEY).expect(200);
      const viaBearer = await t.http().get('/api/system').set('Authorization', `Bearer ${TEST_ADMIN_KEY}`).expect(200);
      expect(viaHeader.body.caller).toEqual(viaBearer.body.caller);
      expect(viaHeader.body.caller).toMatchObject({ key_name: 'ADMIN_API_KEY', owner: 'admin', scopes: ['admin'] });
    });

    it('refuses a malformed Authorization header', async () => {
      await t.http().get('/api/system').set('Authorization', `Basic ${TEST_ADMIN_KEY}`).expect(401);
    });

    it('creates a key that works at once, shows it once and never again', async () => {
      const created = await createKey({ name: 'home-assistant', scopes: ['agents:read', 'messages'] });
      expect(created.body).toMatchObject({
        name: 'home-assistant',
        scopes: ['agents:read', 'messages'],
        status: 'active',
        source: 'created',
        expires_at: null,
      });
      expect(created.body.key).toMatch(/^sbk_[A-Za-z0-9]{8}_/);
      expect(created.body.prefix).toBe(created.body.key.slice(0, 12));

      const me = await t.http().get('/api/system').set('X-Api-Key', created.body.key).expect(200);
      expect(me.body.caller).toMatchObject({ key_id: created.body.id, owner: created.body.id });
      expect(created.body.owner).toBe(created.body.id);

      const listed = await t.http().get('/api/keys').set('X-Api-Key', TEST_ADMIN_KEY).expect(200);
      const one = await t.http().get(`/api/keys/${created.body.id}`).set('X-Api-Key', TEST_ADMIN_KEY).expect(200);
      for (const body of [JSON.stringify(listed.body), JSON.stringify(one.body)]) {
        expect(body).not.toContain(created.body.key);
        expect(body).not.toMatch(/key_hash|keyHash/);
      }
      expect(one.body).not.toHaveProperty('key');
    });

    it('stores only a SHA-256 hash of each key', async () => {
      const created = await createKey({ name: 'hash-check', scopes: ['tasks'] });
      const rows = await t.app.get(DataSource).query('SELECT * FROM api_keys WHERE id = $1', [created.body.id]);
      expect(rows).toHaveLength(1);
      expect(JSON.stringify(rows[0])).not.toContain(created.body.key);
      expect(rows[0].key_hash).toMatch(/^[0-9a-f]{64}$/);
    });

    it('answers 403 naming the missing scope', async () => {
      const reader = await createKey({ name: 'reader', scopes: ['agents:read'] });
      const res = await t.http().get('/api/keys').set('X-Api-Key', reader.body.key).expect(403);
      expect(res.body).toMatchObject({ code: 'FORBIDDEN', details: { required: ['admin'], missing: ['admin'] } });
      expect(res.body.message).toContain('admin');
    });

    it('takes a revoked key away at once', async () => {
      const doomed = await createKey({ name: 'doomed', scopes: ['messages'] });
      await t.http().get('/api/system').set('X-Api-Key', doomed.body.key).expect(200);
      const revoked = await t.http().delete(`/api/keys/${doomed.body.id}`).set('X-Api-Key', TEST_ADMIN_KEY).expect(200);
      expect(revoked.body).toMatchObject({ id: doomed.body.id, status: 'revoked' });
      expect(revoked.body.revoked_at).toEqual(expect.any(String));
      await t.http().get('/api/system').set('X-Api-Key', doomed.body.key).expect(401);
    });

    it('refuses a key past its expiry', async () => {
      const shortLived = await createKey({
        name: 'short',
        scopes: ['messages'],
        expires_at: new Date(Date.now() + 1500).toISOString(),
      });
      await t.http().get('/api/system').set('X-Api-Key', shortLived.body.key).expect(200);
      await new Promise((resolve) => setTimeout(resolve, 1700));
      await t.http().get('/api/system').set('X-Api-Key', shortLived.body.key).expect(401);
      const shown = await t.http().get(`/api/keys/${shortLived.body.id}`).set('X-Api-Key', TEST_ADMIN_KEY).expect(200);
      expect(shown.body.status).toBe('expired');
    });

    it('validates new keys and names the bad fields', async () => {
      const res = await t
        .http()
        .post('/api/keys')
        .set('X-Api-Key', TEST_ADMIN_KEY)
        .send({ name: '', scopes: ['agents:read', 'root'], expires_at: 'tomorrow' })
        .expect(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
      const fields = res.body.details.fields.map((f: { field: string }) => f.field);
      expect(fields).toEqual(expect.arrayContaining(['name', 'scopes', 'expires_at']));
      const past = await t
        .http()
        .post('/api/keys')
        .set('X-Api-Key', TEST_ADMIN_KEY)
        .send({ name: 'old', scopes: ['tasks'], expires_at: '2001-01-01T00:00:00Z' })
        .expect(400);
      expect(past.body.details.fields).toEqual([{ field: 'expires_at', reason: 'must be in the future' }]);
    });

    it('answers 404 for an unknown key id and 400 for a malformed one', async () => {
      const missing = await t
        .http()
        .get('/api/keys/00000000-0000-4000-8000-000000000000')
        .set('X-Api-Key', TEST_ADMIN_KEY)
        .expect(404);
      expect(missing.body.code).toBe('NOT_FOUND');
      const bad = await t.http().delete('/api/keys/not-a-uuid').set('X-Api-Key', TEST_ADMIN_KEY).expect(400);
      expect(bad.body.code).toBe('VALIDATION_FAILED');
    });
  });

  describe('over gRPC', () => {
    it('refuses a call without a key with UNAUTHENTICATED', async () => {
      const { error } = await call(grpcSystem.GetInfo, grpcSystem, {});
      expect(error?.code).toBe(GrpcStatus.UNAUTHENTICATED);
      expect(error?.details).toMatch(/API key is required/);
      expect(error?.metadata.get('x-error-code')).toEqual(['UNAUTHENTICATED']);
    });

    it('refuses an unknown key', async () => {
      const { error } = await call(
        grpcSystem.GetInfo,
        grpcSystem,
        {},
        { 'x-api-key': 'nope-nope-nope-nope-nope-nope' },
      );
      expect(error?.code).toBe(GrpcStatus.UNAUTHENTICATED);
    });

    it('accepts x-api-key and authorization metadata', async () => {
      const viaKey = await call(grpcSystem.GetInfo, grpcSystem, {}, { 'x-api-key': TEST_ADMIN_KEY });
      const viaBearer = await call(grpcSystem.GetInfo, grpcSystem, {}, { authorization: `Bearer ${TEST_ADMIN_KEY}` });
      expect(viaKey.error).toBeUndefined();
      expect(viaKey.response).toMatchObject({
        name: 'switchboard',
        database: t.backends.mode.database,
        kv: t.backends.mode.redis,
        caller: { key_name: 'ADMIN_API_KEY', scopes: ['admin'] },
      });
      expect(viaBearer.response?.caller).toEqual(viaKey.response?.caller);
    });
  });
});

describe('admin key bootstrap (e2e)', () => {
  it('registers ADMIN_API_KEY and replaces it when it changes', async () => {
    const first = await startTestApp({ ADMIN_API_KEY: 'first-admin-key-aaaaaaaaaaaaaaaaaaaa' });
    await first.http().get('/api/system').set('X-Api-Key', 'first-admin-key-aaaaaaaaaaaaaaaaaaaa').expect(200);
    await first.app.close();

    const second = await startTestApp({ ADMIN_API_KEY: 'second-admin-key-bbbbbbbbbbbbbbbbbbb' }, first.backends);
    try {
      await second.http().get('/api/system').set('X-Api-Key', 'second-admin-key-bbbbbbbbbbbbbbbbbbb').expect(200);
      await second.http().get('/api/system').set('X-Api-Key', 'first-admin-key-aaaaaaaaaaaaaaaaaaaa').expect(401);
      const keys = await second
        .http()
        .get('/api/keys')
        .set('X-Api-Key', 'second-admin-key-bbbbbbbbbbbbbbbbbbb')
        .expect(200);
      const env = keys.body.filter((k: { source: string }) => k.source === 'env');
      expect(env.map((k: { status: string }) => k.status).sort()).toEqual(['active', 'revoked']);
      for (const k of env) expect(k.prefix).toMatch(/^h:[0-9a-f]{10}$/);
    } finally {
      await second.app.close();
      await first.backends.cleanup();
    }
  });

  it('creates and prints an admin key once when none is configured', async () => {
    const printed: string[] = [];
    const write = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      printed.push(String(chunk));
      return true;
    });
    let t: TestApp | undefined;
    try {
      t = await startTestApp({ ADMIN_API_KEY: undefined });
      const key = /(sbk_[A-Za-z0-9]{8}_[A-Za-z0-9_-]{43})/.exec(printed.join(''))?.[1];
      expect(key).toBeDefined();
      const me = await t.http().get('/api/system').set('X-Api-Key', key!).expect(200);
      expect(me.body.caller).toMatchObject({ key_name: 'first-start admin', scopes: ['admin'] });
      await t.app.close();

      printed.length = 0;
      const again = await startTestApp({ ADMIN_API_KEY: undefined }, t.backends);
      await again.app.close();
      expect(printed.join('')).not.toMatch(/sbk_/);
    } finally {
      write.mockRestore();
      await t?.backends.cleanup();
    }
  });
});
