import * as grpc from '@grpc/grpc-js';
import { RoutePolicies } from '../src/platform/http/route-policies';
import { call, healthClient, rawUnaryError, reflectedServices, systemClient } from './support/grpc-clients';
import { startTestApp, TEST_ADMIN_KEY, TestApp } from './support/test-app';

describe('error shapes (e2e)', () => {
  let t: TestApp;
  const admin = { 'X-Api-Key': TEST_ADMIN_KEY };

  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_REGISTRY_PER_MIN: '1000', MAX_BODY_BYTES: '4096' });
  });
  afterAll(async () => t?.close());

  it.each(['get', 'post', 'put', 'patch', 'delete'] as const)(
    'answers an unknown route (%s) with 404 JSON',
    async (method) => {
      const res = await t.http()[method]('/definitely/not/here').set(admin).expect(404);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.body).toMatchObject({ statusCode: 404, code: 'NOT_FOUND' });
    },
  );

  it('answers malformed JSON with 400 JSON, before authentication', async () => {
    for (const body of ['{bad', '{"name": "x",}', '[1, 2', '"unterminated']) {
      const res = await t
        .http()
        .post('/api/keys')
        .set(admin)
        .set('Content-Type', 'application/json')
        .send(body)
        .expect(400);
      expect(res.body).toMatchObject({
        statusCode: 400,
        code: 'MALFORMED_REQUEST',
        message: 'Malformed JSON in request body',
      });
    }
  });

  it('answers a body that is not JSON with 415', async () => {
    const res = await t
      .http()
      .post('/api/keys')
      .set(admin)
      .set('Content-Type', 'text/plain')
      .send('name=x')
      .expect(415);
    expect(res.body.code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  it('answers an oversize body with 413, whether its length is declared or streamed', async () => {
    const big = JSON.stringify({ name: 'x'.repeat(5000), scopes: ['tasks'] });
    const declared = await t
      .http()
      .post('/api/keys')
      .set(admin)
      .set('Content-Type', 'application/json')
      .send(big)
      .expect(413);
    expect(declared.body).toMatchObject({ statusCode: 413, code: 'PAYLOAD_TOO_LARGE' });

    const streamed = await fetch(`${t.baseUrl}/api/keys`, {
      method: 'POST',
      headers: { ...admin, 'Content-Type': 'application/json' },
      body: new ReadableStream({
        start(controller) {
          controller.enqueue(new TextEncoder().encode(big));
          controller.close();
        },
      }),
      duplex: 'half',
    });
    expect(streamed.status).toBe(413);
    expect(((await streamed.json()) as { code: string }).code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('answers wrong types and missing fields with 400 naming each field', async () => {
    const cases: [unknown, string[]][] = [
      [{}, ['name', 'scopes']],
      [{ name: 42, scopes: 'admin' }, ['name', 'scopes']],
      [{ name: 'ok', scopes: [] }, ['scopes']],
      [{ name: 'ok', scopes: ['tasks', 'tasks'] }, ['scopes']],
      [{ name: 'ok', scopes: ['tasks'], owner: 'has spaces' }, ['owner']],
      [
        [1, 2, 3],
        ['name', 'scopes'],
      ],
      [null, ['name', 'scopes']],
    ];
    for (const [body, fields] of cases) {
      const res = await t
        .http()
        .post('/api/keys')
        .set(admin)
        .set('Content-Type', 'application/json')
        .send(JSON.stringify(body));
      expect({ body, status: res.status }).toEqual({ body, status: 400 });
      expect(res.body.code).toBe('VALIDATION_FAILED');
      const named = res.body.details.fields.map((f: { field: string }) => f.field);
      for (const field of fields) expect(named).toContain(field);
    }
  });

  it('ignores unknown fields rather than failing on them', async () => {
    const res = await t
      .http()
      .post('/api/keys')
      .set(admin)
      .send({ name: 'tolerant', scopes: ['tasks'], colour: 'blue' })
      .expect(201);
    expect(res.body).not.toHaveProperty('colour');
  });

  it('keeps 409 for a state that does not allow the operation, with its own code (gRPC: FAILED_PRECONDITION)', async () => {
    const removed = await t.http().delete('/api/agents/orchestrator').set(admin).expect(409);
    expect(removed.body).toMatchObject({
      statusCode: 409,
      code: 'INVALID_STATE',
      message: expect.stringMatching(/built in/),
    });
    const refreshed = await t.http().post('/api/agents/orchestrator/refresh').set(admin).expect(409);
    expect(refreshed.body).toMatchObject({ statusCode: 409, code: 'INVALID_STATE' });
  });

  it('never answers a client mistake with a 5xx', async () => {
    const probes: [string, string, string | undefined, string | undefined][] = [
      ['POST', '/api/keys', 'application/json', '\u0000\u0001'],
      ['POST', '/api/keys', 'application/json; charset=latin-9', '{}'],
      ['POST', '/api/keys', 'application/json', '{"name":{"$gt":""},"scopes":[{}]}'],
      ['POST', '/api/keys', 'application/json', `{"name":"${'a'.repeat(101)}","scopes":["tasks"]}`],
      ['POST', '/api/keys', 'application/json', '{"name":"x","scopes":["tasks"],"expires_at":"2030-13-45T99:00:00Z"}'],
      ['GET', '/api/keys/%E0%A4%A', undefined, undefined],
      ['DELETE', '/api/keys/00000000-0000-4000-8000-000000000000', undefined, undefined],
      ['GET', '/api/keys/../../etc/passwd', undefined, undefined],
    ];
    for (const [method, path, type, body] of probes) {
      const res = await fetch(`${t.baseUrl}${path}`, {
        method,
        headers: { ...admin, ...(type ? { 'Content-Type': type } : {}) },
        body,
      });
      expect({ method, path, body, status: res.status }).toEqual({ method, path, body, status: expect.any(Number) });
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    }
  });

  describe('on a JSON-RPC route', () => {
    beforeAll(() => t.app.get(RoutePolicies).addJsonRpc('POST', '/api/keys'));

    it('answers malformed JSON with a JSON-RPC -32700 error object over HTTP 200', async () => {
      const res = await t
        .http()
        .post('/api/keys')
        .set(admin)
        .set('Content-Type', 'application/json')
        .send('{"jsonrpc":"2.0",')
        .expect(200);
      expect(res.body).toEqual({
        jsonrpc: '2.0',
        id: null,
        error: { code: -32700, message: 'Malformed JSON in request body', data: { code: 'MALFORMED_REQUEST' } },
      });
    });

    it('keeps the id and the HTTP status of transport-level errors such as 401', async () => {
      const res = await t.http().post('/api/keys').send({ jsonrpc: '2.0', id: 7, method: 'x' }).expect(401);
      expect(res.body).toMatchObject({ jsonrpc: '2.0', id: 7, error: { code: -32041 } });
    });

    it('maps invalid params to -32602 with the fields in data', async () => {
      const res = await t.http().post('/api/keys').set(admin).send({ id: 'abc', name: '' }).expect(200);
      expect(res.body).toMatchObject({
        jsonrpc: '2.0',
        id: 'abc',
        error: { code: -32602, data: { code: 'VALIDATION_FAILED' } },
      });
      expect(res.body.error.data.fields).toEqual(expect.arrayContaining([expect.objectContaining({ field: 'name' })]));
    });
  });
});

describe('gRPC platform services (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t?.close());

  it('serves grpc.health.v1 without a key', async () => {
    const health = healthClient(t.grpcAddress);
    try {
      const { response, error } = await call(health.Check, health, { service: '' });
      expect(error).toBeUndefined();
      expect(response).toEqual({ status: 'SERVING' });
    } finally {
      health.close();
    }
  });

  it('lists its services through server reflection', async () => {
    const services = await reflectedServices(t.grpcAddress);
    expect(services).toEqual(expect.arrayContaining(['switchboard.v1.SystemService', 'grpc.health.v1.Health']));
  });

  it('answers an unknown method with UNIMPLEMENTED', async () => {
    const error = await rawUnaryError(t.grpcAddress, '/switchboard.v1.SystemService/NoSuchMethod', Buffer.alloc(0));
    expect(error?.code).toBe(grpc.status.UNIMPLEMENTED);
  });

  it('answers a request it cannot decode with INVALID_ARGUMENT (a client mistake) and keeps serving', async () => {
    const error = await rawUnaryError(
      t.grpcAddress,
      '/switchboard.v1.SystemService/GetInfo',
      Buffer.from([0xff, 0xff, 0xff, 0xff]),
    );
    expect(error?.code).toBe(grpc.status.INVALID_ARGUMENT);
    expect(error?.details).toMatch(/could not be decoded/i);
    const system = systemClient(t.grpcAddress);
    const after = await call(system.GetInfo, system, {}, { 'x-api-key': TEST_ADMIN_KEY });
    system.close();
    expect(after.error).toBeUndefined();
  });
});
