import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestApp, TEST_ADMIN_KEY, TestApp } from './support/test-app';

const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
  "font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";
const INDEX =
  '<!doctype html><title>Switchboard</title><script type="module" src="/console/assets/app-1a2b3c.js"></script>';

function expectSecurityHeaders(res: { headers: Record<string, string> }): void {
  expect(res.headers['content-security-policy']).toBe(CSP);
  expect(res.headers['x-content-type-options']).toBe('nosniff');
  expect(res.headers['referrer-policy']).toBe('no-referrer');
}

describe('The console, served (e2e)', () => {
  let t: TestApp;
  let dist: string;

  beforeAll(async () => {
    dist = mkdtempSync(join(tmpdir(), 'console-dist-'));
    mkdirSync(join(dist, 'assets'));
    writeFileSync(join(dist, 'index.html'), INDEX);
    writeFileSync(join(dist, 'assets', 'app-1a2b3c.js'), 'console.log("console");\n');
    writeFileSync(join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    writeFileSync(join(dist, '.secret'), 'hidden');
    writeFileSync(join(tmpdir(), 'outside-console.txt'), 'outside');
    t = await startTestApp({ CONSOLE_DIST_DIR: dist });
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dist, { recursive: true, force: true });
  });

  it('serves index.html at /console/ with a strict CSP and no caching, without a key', async () => {
    const res = await t.http().get('/console/').expect(200);
    expect(res.text).toBe(INDEX);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['cache-control']).toBe('no-cache');
    expectSecurityHeaders(res);
  });

  it('sends /console on to /console/', async () => {
    const res = await t.http().get('/console?x=1').expect(302);
    expect(res.headers.location).toBe('/console/?x=1');
  });

  it("answers the app's own routes with index.html (the SPA fallback)", async () => {
    for (const path of ['/console/agents', '/console/tasks/0b7c/tree', '/console/index.html']) {
      const res = await t.http().get(path).expect(200);
      expect(res.text).toBe(INDEX);
      expect(res.headers['cache-control']).toBe('no-cache');
      expectSecurityHeaders(res);
    }
  });

  it('serves the hashed bundles as immutable, other files revalidated', async () => {
    const js = await t.http().get('/console/assets/app-1a2b3c.js').expect(200);
    expect(js.headers['content-type']).toMatch(/javascript/);
    expect(js.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(js.text).toContain('console.log');
    expectSecurityHeaders(js);
    const icon = await t.http().get('/console/favicon.svg').expect(200);
    expect(icon.headers['cache-control']).toBe('no-cache');
  });

  it('answers 404 for missing files, hidden files and paths out of the folder', async () => {
    for (const path of [
      '/console/assets/missing-000.js',
      '/console/.secret',
      '/console/%2e%2e/outside-console.txt',
      '/console/assets/%2e%2e%2f%2e%2e%2foutside-console.txt',
      '/console/..%5coutside-console.txt',
    ]) {
      const res = await t.http().get(path);
      expect([path, res.status]).toEqual([path, 404]);
      expect(res.text).not.toContain('outside');
      expect(res.text).not.toContain('hidden');
    }
  });

  it('answers a path that is not valid percent-encoding with 400', async () => {
    const res = await t.http().get('/console/%E0%A4%A.js').expect(400);
    expect(res.text).not.toContain('outside');
  });

  it('sends a browser asking for / to the console', async () => {
    const res = await t
      .http()
      .get('/')
      .set('Accept', 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8')
      .expect(302);
    expect(res.headers.location).toBe('/console/');
  });

  it('leaves / as it was for everything else: GET without HTML is not found, POST / is JSON-RPC', async () => {
    const json = await t.http().get('/').set('Accept', 'application/json').expect(404);
    expect(json.body).toMatchObject({ code: 'NOT_FOUND' });
    const rpc = await t
      .http()
      .post('/')
      .set('X-Api-Key', TEST_ADMIN_KEY)
      .send({ jsonrpc: '2.0', id: 7, method: 'tasks.list', params: {} })
      .expect(200);
    expect(rpc.body).toMatchObject({ jsonrpc: '2.0', id: 7 });
    expect(rpc.body.error).toBeUndefined();
    const unknown = await t
      .http()
      .post('/')
      .set('X-Api-Key', TEST_ADMIN_KEY)
      .send({ jsonrpc: '2.0', id: 8, method: 'no/such-method', params: {} })
      .expect(200);
    expect(unknown.body).toMatchObject({ jsonrpc: '2.0', id: 8, error: { code: -32601 } });
  });

  it('answers 503 with a plain explanation when the console is not built', async () => {
    const unbuilt = await startTestApp({ CONSOLE_DIST_DIR: join(dist, 'not-built') });
    try {
      for (const path of ['/console/', '/console/agents', '/console/assets/app.js']) {
        const res = await unbuilt.http().get(path).expect(503);
        expect(res.headers['content-type']).toMatch(/^text\/plain/);
        expect(res.text).toMatch(/the console is not built: run npm run build:console/i);
        expectSecurityHeaders(res);
      }
    } finally {
      await unbuilt.close();
    }
  });
});
