import { startTestApp, TestApp } from './support/test-app';

describe('health, OpenAPI and request ids (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t?.close());

  it('reports liveness without a key', async () => {
    const res = await t.http().get('/health/live').expect(200);
    expect(res.body).toMatchObject({ status: 'ok' });
  });

  it('reports readiness with the backends in use', async () => {
    const res = await t.http().get('/health/ready').expect(200);
    expect(res.body.status).toBe('ok');
    expect(res.body.details.database).toEqual({ status: 'up', mode: t.backends.mode.database });
    expect(res.body.details.redis).toMatchObject({ status: 'up', mode: t.backends.mode.redis });
    expect(res.body.details.lifecycle).toEqual({ status: 'up' });
  });

  it('serves the OpenAPI document and its UI without a key', async () => {
    const doc = await t.http().get('/docs-json').expect(200);
    expect(doc.body.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.body.paths)).toEqual(
      expect.arrayContaining(['/api/keys', '/api/keys/{id}', '/health/ready', '/api/agents/{id}/v1']),
    );
    expect(doc.body.components.securitySchemes['api-key']).toMatchObject({
      type: 'apiKey',
      in: 'header',
      name: 'X-Api-Key',
    });
    const ui = await t.http().get('/docs').expect(200);
    expect(ui.text).toContain('swagger');
  });

  it('echoes a sane X-Request-Id and replaces an unsafe one', async () => {
    const kept = await t.http().get('/health/live').set('X-Request-Id', 'trace-123.abc').expect(200);
    expect(kept.headers['x-request-id']).toBe('trace-123.abc');
    const replaced = await t.http().get('/health/live').set('X-Request-Id', 'bad id\twith spaces').expect(200);
    expect(replaced.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('puts the request id into error bodies', async () => {
    const res = await t.http().get('/no/such/route').set('X-Request-Id', 'find-me-42').expect(404);
    expect(res.body.requestId).toBe('find-me-42');
  });

  it('does not advertise the framework', async () => {
    const res = await t.http().get('/health/live');
    expect(res.headers['x-powered-by']).toBeUndefined();
  });
});
