import { randomUUID } from 'node:crypto';
import { existsSync, rmSync } from 'node:fs';
import * as http from 'node:http';
import { join } from 'node:path';
import { provisionBackends, TestBackends } from './support/backends';
import { runCliScript, ServerProcess } from './support/server-process';
import { homeAssistantBody } from './support/test-app';

/** The server and CLIs as separate processes, the way users run them. */
describe('the server process (e2e)', () => {
  let backends: TestBackends;
  let server: ServerProcess;
  let adminKey: string;

  beforeAll(async () => {
    backends = await provisionBackends();
    server = await ServerProcess.start({ ...backends.env, ADMIN_API_KEY: undefined });
    await server.ready();
    adminKey = /(sbk_[A-Za-z0-9]{8}_[A-Za-z0-9_-]{43})/.exec(server.stdout)![1];
  }, 120_000);
  afterAll(async () => {
    await server?.stop('SIGKILL');
    await backends?.cleanup();
  });

  it('prints a first-start admin key that works', async () => {
    expect(server.stdout).toContain('It is shown only this once');
    const res = await fetch(`${server.baseUrl}/api/system`, { headers: { 'X-Api-Key': adminKey } });
    expect(res.status).toBe(200);
  });

  it("loads the router's sentence-embedding model behind the boot, from the package, on its worker thread", async () => {
    const loaded = /Sentence-embedding model loaded in \d+ ms: Universal Sentence Encoder lite/;
    for (let i = 0; i < 300 && !loaded.test(server.stdout); i++) await new Promise((r) => setTimeout(r, 100));
    expect(server.stdout).toMatch(loaded);
    const health = await fetch(`${server.baseUrl}/internal/orchestration/health`, {
      headers: { 'X-Api-Key': adminKey },
    });
    expect(((await health.json()) as { router: { embeddings: unknown } }).router.embeddings).toMatchObject({
      state: 'ready',
      dimensions: 512,
    });
  });

  it('logs JSON lines with request ids, never a key, and leaves out health probes', async () => {
    await fetch(`${server.baseUrl}/health/ready`);
    await fetch(`${server.baseUrl}/api/keys`, { headers: { 'X-Api-Key': adminKey, 'X-Request-Id': 'log-check-1' } });
    await fetch(`${server.baseUrl}/api/keys`, {
      headers: { Authorization: `Bearer ${adminKey}`, 'X-Request-Id': 'log-check-2' },
    });
    // The A2A routes are served ahead of Nest's router; they are logged all the same.
    const a2a = await fetch(`${server.baseUrl}/api/agents/orchestrator/v1`, {
      method: 'POST',
      headers: { 'X-Api-Key': adminKey, 'X-Request-Id': 'log-check-3', 'Content-Type': 'application/json' },
      body: JSON.stringify(homeAssistantBody('hello', randomUUID())),
    });
    expect(a2a.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const lines = server.stdout.split('\n').filter((l) => l.startsWith('{'));
    const records = lines.map((l) => JSON.parse(l) as Record<string, { id?: string; url?: string }> & { msg?: string });
    for (const id of ['log-check-1', 'log-check-2']) {
      const line = records.find((r) => r.req?.id === id);
      expect(line).toMatchObject({
        msg: 'request completed',
        service: 'switchboard',
        req: { method: 'GET', url: '/api/keys' },
        res: { statusCode: 200 },
      });
    }
    expect(records.find((r) => r.req?.id === 'log-check-3')).toMatchObject({
      msg: 'request completed',
      req: { method: 'POST', url: '/api/agents/orchestrator/v1' },
      res: { statusCode: 200 },
    });
    expect(lines.join('\n')).not.toContain(adminKey);
    expect(lines.join('\n')).not.toMatch(/x-api-key|authorization/i);
    expect(records.some((r) => String(r.req?.url).startsWith('/health'))).toBe(false);
    // Apart from the one-time key banner, every line is JSON.
    const outsideBanner = server.stdout
      .replace(/\n=+\n[\s\S]*?\n=+\n/, '\n')
      .split('\n')
      .filter((l) => l.trim());
    for (const line of outsideBanner) expect(() => JSON.parse(line)).not.toThrow();
  });

  it("does not log a caller's mistake on a stream as a server error", async () => {
    // The A2A SDK reports it with console.error and a stack; it is answered as task not found.
    const stream = await fetch(`${server.baseUrl}/api/agents/orchestrator/v1`, {
      method: 'POST',
      headers: { 'X-Api-Key': adminKey, 'Content-Type': 'application/json', 'X-Request-Id': 'stream-mistake' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 9,
        method: 'message/stream',
        params: {
          message: {
            kind: 'message',
            messageId: randomUUID(),
            role: 'user',
            parts: [{ kind: 'text', text: 'hi' }],
            taskId: randomUUID(),
          },
        },
      }),
    });
    expect(await stream.text()).toContain('-32001');
    await new Promise((resolve) => setTimeout(resolve, 200));
    const records = server.stdout
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as { level: number; msg?: string; context?: string });
    expect(records.find((r) => r.level >= 50 && /Pre-stream error|TaskNotFound/.test(r.msg ?? ''))).toBeUndefined();
    expect(records.find((r) => (r as { req?: { id?: string } }).req?.id === 'stream-mistake')).toBeDefined();
  });

  it('lets the keys CLI work on the running server’s embedded database', async () => {
    const created = await runCliScript(
      'keys',
      ['create', '--name', 'from-cli', '--scopes', 'messages,tasks', '--expires', '30d'],
      backends.env,
    );
    expect(created.code).toBe(0);
    const key = /(sbk_[A-Za-z0-9]{8}_[A-Za-z0-9_-]{43})/.exec(created.stdout)![1];
    const me = await fetch(`${server.baseUrl}/api/system`, { headers: { 'X-Api-Key': key } });
    expect(((await me.json()) as { caller: unknown }).caller).toMatchObject({
      key_name: 'from-cli',
      scopes: ['messages', 'tasks'],
    });

    const listed = await runCliScript('keys', ['list', '--json'], backends.env);
    expect(listed.code).toBe(0);
    const keys: { id: string; name: string }[] = JSON.parse(listed.stdout);
    const id = keys.find((k) => k.name === 'from-cli')!.id;
    expect(listed.stdout).not.toContain(key);

    const revoked = await runCliScript('keys', ['revoke', id], backends.env);
    expect(revoked.code).toBe(0);
    expect(revoked.stdout).toContain('revoked');
    // The server has no event from the CLI's process: it notices within its key cache's 5 s. Once a
    // second, so the polling stays under /api/system's rate limit (10 a minute by default).
    const deadline = Date.now() + 10_000;
    let status = 200;
    while (status === 200 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      status = (await fetch(`${server.baseUrl}/api/system`, { headers: { 'X-Api-Key': key } })).status;
    }
    expect(status).toBe(401);
  });

  it('explains CLI mistakes with the usage and exit code 2', async () => {
    const result = await runCliScript('keys', ['create', '--name', 'x', '--scopes', 'root'], backends.env);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--scopes: must contain only: agents:read');
    expect(result.stderr).toContain('Usage:');
  });

  it('reports migrations as applied', async () => {
    const result = await runCliScript('migrate', ['show'], backends.env);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('All migrations are applied.');
  });

  it('on SIGTERM finishes in-flight requests, refuses new ones, exits 0 and releases its DATA_DIR', async () => {
    const body = JSON.stringify({ name: 'created-while-draining', scopes: ['tasks'] });
    const agent = new http.Agent({ keepAlive: true });
    let response = '';
    const finished = new Promise<number>((resolve, reject) => {
      const req = http.request(`${server.baseUrl}/api/keys`, {
        method: 'POST',
        agent,
        headers: {
          'X-Api-Key': adminKey,
          'Content-Type': 'application/json',
          'Content-Length': Buffer.byteLength(body),
        },
      });
      req.on('response', (res) => {
        res.on('data', (chunk: Buffer) => (response += chunk.toString()));
        res.on('end', () => resolve(res.statusCode!));
      });
      req.on('error', reject);
      req.write(body.slice(0, 10));
      setTimeout(() => {
        server.child.kill('SIGTERM');
        setTimeout(() => req.end(body.slice(10)), 700);
      }, 300);
    });
    await new Promise((resolve) => setTimeout(resolve, 600));
    await expect(fetch(`${server.baseUrl}/health/live`)).rejects.toThrow();

    const started = Date.now();
    expect(await finished).toBe(201);
    expect(JSON.parse(response)).toMatchObject({ name: 'created-while-draining' });
    const result = await server.exit();
    agent.destroy();
    // Well under the 5 s keep-alive timeout: the drained connection is closed, not waited out.
    expect(Date.now() - started).toBeLessThan(4_000);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('SIGTERM received: shutting down');
    expect(result.stdout).toContain('Draining: finishing in-flight requests');
    if (backends.mode.database === 'embedded') {
      expect(existsSync(join(backends.env.DATA_DIR, 'switchboard.lock'))).toBe(false);
    }
  });
});

describe('refusing to start (e2e)', () => {
  it('stops with exit code 1 naming bad variables, never their values', async () => {
    const server = await ServerProcess.start({
      DATA_DIR: '/tmp/unused',
      PORT: 'http',
      DATABASE_URL: 'mysql://u:sekrit-pw@h/db',
    });
    const result = await server.exit();
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Invalid configuration');
    expect(result.stderr).toMatch(/PORT/);
    expect(result.stderr).toMatch(/DATABASE_URL/);
    expect(result.stderr + result.stdout).not.toContain('sekrit-pw');
  });

  const embeddedOnly = process.env.DATABASE_URL ? it.skip : it;
  embeddedOnly(
    'refuses a DATA_DIR another server owns',
    async () => {
      const backends = await provisionBackends();
      const env = { ...backends.env, ADMIN_API_KEY: 'in-use-admin-key-000000000000000', ROUTER_EMBEDDINGS: 'false' };
      const first = await ServerProcess.start(env);
      try {
        await first.ready();
        const second = await ServerProcess.start(env);
        const result = await second.exit();
        expect(result.code).toBe(1);
        expect(result.stderr).toContain(`DATA_DIR ${backends.env.DATA_DIR} is in use by process ${first.child.pid}`);
      } finally {
        await first.stop();
        rmSync(backends.env.DATA_DIR, { recursive: true, force: true });
        await backends.cleanup();
      }
    },
    120_000,
  );
});
