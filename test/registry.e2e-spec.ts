import { status as GrpcStatus } from '@grpc/grpc-js';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import express from 'express';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { PROTO_DIR } from '../src/paths';
import { AgentHealthChecker } from '../src/registry/remote/agent-health-checker';
import { RemoteAgentHosting } from '../src/registry/remote/remote-agent-hosting';
import { call } from './support/grpc-clients';
import { RemoteAgent, startLightsAgent, startMusicAgent } from './support/remote-agents';
import { realDatabaseUrl, realRedisUrl } from './support/backends';
import { freePort, messageSend, startTestApp, TEST_ADMIN_KEY, TestApp } from './support/test-app';

type Unary = (
  req: object,
  md: grpc.Metadata,
  cb: (e: grpc.ServiceError | null, r: Record<string, unknown>) => void,
) => void;
interface RegistryClient extends grpc.Client {
  ListAgentCards: Unary;
  GetAgent: Unary;
  GetAgentExtended: Unary;
  RegisterAgent: Unary;
  ValidateAgentCard: Unary;
  RefreshAgent: Unary;
  DeleteAgent: Unary;
}

function registryClient(address: string): RegistryClient {
  const definition = protoLoader.loadSync(join(PROTO_DIR, 'switchboard/v1/registry.proto'), {
    keepCase: true,
    defaults: true,
  });
  const pkg = grpc.loadPackageDefinition(definition) as unknown as {
    switchboard: { v1: { RegistryService: new (a: string, c: grpc.ChannelCredentials) => RegistryClient } };
  };
  return new pkg.switchboard.v1.RegistryService(address, grpc.credentials.createInsecure());
}

/** A server answering the well-known card paths with whatever the test wants. */
async function cardServer(
  routes: Record<string, (res: express.Response) => void>,
): Promise<{ url: string; close(): Promise<void> }> {
  const app = express();
  for (const [path, answer] of Object.entries(routes)) app.get(path, (_req, res) => answer(res));
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe('agent registry (e2e)', () => {
  let t: TestApp;
  let lights: RemoteAgent;
  let music: RemoteAgent;
  let writer: string;
  let reader: string;
  const admin = { 'X-Api-Key': TEST_ADMIN_KEY };

  beforeAll(async () => {
    t = await startTestApp({
      ALLOW_PRIVATE_NETWORK_TARGETS: 'true',
      RATE_LIMIT_REGISTRY_PER_MIN: '1000',
      AGENT_HEALTH_CHECK_INTERVAL_SECONDS: '0',
      OUTBOUND_TIMEOUT_MS: '1500',
      OUTBOUND_MAX_RESPONSE_BYTES: '65536',
    });
    lights = await startLightsAgent({ requireKey: 'lights-secret' });
    music = await startMusicAgent();
    const key = async (scopes: string[]) =>
      (
        await t
          .http()
          .post('/api/keys')
          .set(admin)
          .send({ name: scopes.join('+'), scopes })
          .expect(201)
      ).body.key as string;
    writer = await key(['agents:read', 'agents:write']);
    reader = await key(['agents:read']);
  });
  afterAll(async () => {
    await t?.close();
    await lights?.close();
    await music?.close();
  });

  it('registers a remote agent from its card, authenticating to it, and never echoes the secret', async () => {
    const res = await t
      .http()
      .post('/api/agents')
      .set('X-Api-Key', writer)
      .send({ base_url: `${lights.baseUrl}/`, auth: { mode: 'api_key', header: 'X-Api-Key', secret: 'lights-secret' } })
      .expect(201);
    expect(res.body).toEqual({
      agent_id: 'lights',
      name: 'Lights',
      kind: 'remote',
      base_url: lights.baseUrl,
      status: 'connected',
      card: expect.objectContaining({ name: 'Lights', protocolVersion: '0.3.0' }),
      auth_mode: 'api_key',
      last_seen_at: expect.any(String),
      created_at: expect.any(String),
    });
    expect(JSON.stringify(res.body)).not.toContain('lights-secret');
    expect(lights.requests.at(-1)?.headers['x-api-key']).toBe('lights-secret');
    const rows = await t.app.get(DataSource).query(`SELECT auth_secret_sealed FROM agents WHERE id = 'lights'`);
    expect(rows[0].auth_secret_sealed).toMatch(/^v1:/);
    expect(rows[0].auth_secret_sealed).not.toContain('lights-secret');
  });

  it('lists the hub’s cards, the orchestrator first, at /api/agents and /agents', async () => {
    await t.http().post('/api/agents').set('X-Api-Key', writer).send({ base_url: music.baseUrl }).expect(201);
    for (const path of ['/api/agents', '/agents']) {
      const res = await t.http().get(path).set('X-Api-Key', reader).expect(200);
      expect(res.body.map((c: { name: string }) => c.name)).toEqual([
        'Orchestrator',
        'Lights',
        'Music',
        'Shop',
        'Workflow',
      ]);
      expect(res.body[1]).toMatchObject({
        url: `${t.baseUrl}/api/agents/lights/v1`,
        preferredTransport: 'JSONRPC',
        protocolVersion: '0.3.0',
        capabilities: { streaming: true, pushNotifications: true },
        securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'X-Api-Key' } },
        skills: [expect.objectContaining({ id: 'lights' })],
        defaultInputModes: ['text/plain'],
      });
    }
  });

  it('shows one record, and the admin view without the secret', async () => {
    const record = await t.http().get('/api/agents/lights').set('X-Api-Key', reader).expect(200);
    expect(record.body).toMatchObject({ agent_id: 'lights', kind: 'remote', status: 'connected' });
    await t.http().get('/api/agents/lights/extended').set('X-Api-Key', reader).expect(403);
    const extended = await t.http().get('/api/agents/lights/extended').set(admin).expect(200);
    expect(extended.body).toMatchObject({
      agent_id: 'lights',
      auth_mode: 'api_key',
      auth_header: 'X-Api-Key',
      has_secret: true,
      card_url: `${lights.baseUrl}/.well-known/agent-card.json`,
      last_check_error: null,
      updated_at: expect.any(String),
    });
    expect(JSON.stringify(extended.body)).not.toContain('lights-secret');
    const local = await t.http().get('/api/agents/orchestrator').set('X-Api-Key', reader).expect(200);
    expect(local.body).toMatchObject({ agent_id: 'orchestrator', kind: 'local', status: 'connected' });
    await t.http().get('/api/agents/nobody').set('X-Api-Key', reader).expect(404);
  });

  it('never sends an agent’s credential to another origin, whether a card names it or a redirect does', async () => {
    const seen: Record<string, unknown>[] = [];
    const decoyApp = express();
    const record = (req: express.Request, res: express.Response) => {
      seen.push(req.headers);
      res.status(404).end();
    };
    decoyApp.use(record);
    const decoyServer: Server = await new Promise((resolve) => {
      const s = decoyApp.listen(0, '127.0.0.1', () => resolve(s));
    });
    const decoyUrl = `http://127.0.0.1:${(decoyServer.address() as AddressInfo).port}`;
    const card = {
      protocolVersion: '0.3.0',
      name: 'Elsewhere',
      description: 'Its endpoint is on another origin',
      url: `${decoyUrl}/a2a`,
      version: '1',
      capabilities: {},
      defaultInputModes: ['text/plain'],
      defaultOutputModes: ['text/plain'],
      skills: [{ id: 's', name: 'S', description: 'd', tags: ['t'] }],
    };
    const home = await cardServer({ '/.well-known/agent-card.json': (res) => res.json(card) });
    const redirecting = await cardServer({
      '/.well-known/agent-card.json': (res) => res.redirect(302, `${decoyUrl}/.well-known/agent-card.json`),
      '/.well-known/agent.json': (res) => res.redirect(302, `${decoyUrl}/.well-known/agent.json`),
    });
    const auth = { mode: 'api_key', header: 'X-Api-Key', secret: 'do-not-leak' };
    try {
      await t
        .http()
        .post('/api/agents')
        .set('X-Api-Key', writer)
        .send({ base_url: home.url, id: 'elsewhere', auth })
        .expect(201);
      await t
        .http()
        .post('/api/agents/elsewhere/v1')
        .set('X-Api-Key', TEST_ADMIN_KEY)
        .send(messageSend('hi'))
        .expect(200);
      const refused = await t
        .http()
        .post('/api/agents')
        .set('X-Api-Key', writer)
        .send({ base_url: redirecting.url, auth })
        .expect(404);
      expect(refused.body.details.attempts).toEqual([
        { url: `${redirecting.url}/.well-known/agent-card.json`, problem: 'HTTP 302' },
        { url: `${redirecting.url}/.well-known/agent.json`, problem: 'HTTP 302' },
      ]);
      expect(seen.length).toBeGreaterThan(0);
      for (const headers of seen) expect(JSON.stringify(headers)).not.toContain('do-not-leak');
    } finally {
      await t.http().delete('/api/agents/elsewhere').set('X-Api-Key', writer);
      await new Promise((resolve) => decoyServer.close(() => resolve(undefined)));
      await Promise.all([home.close(), redirecting.close()]);
    }
  });

  it('refuses a second registration under the same id with 409', async () => {
    const res = await t
      .http()
      .post('/api/agents')
      .set('X-Api-Key', writer)
      .send({ base_url: music.baseUrl, id: 'music' })
      .expect(409);
    expect(res.body).toMatchObject({ code: 'CONFLICT', message: 'An agent with id music is already registered' });
    const builtIn = await t
      .http()
      .post('/api/agents')
      .set('X-Api-Key', writer)
      .send({ base_url: music.baseUrl, id: 'orchestrator' })
      .expect(409);
    expect(builtIn.body.message).toContain('built-in');
  });

  it('finds a card at the legacy /.well-known/agent.json', async () => {
    const legacy = await startLightsAgent({ legacyCardPath: true });
    try {
      const res = await t
        .http()
        .post('/api/agents')
        .set('X-Api-Key', writer)
        .send({ base_url: legacy.baseUrl, id: 'legacy-lights' })
        .expect(201);
      const extended = await t.http().get('/api/agents/legacy-lights/extended').set(admin).expect(200);
      expect(extended.body.card_url).toBe(`${legacy.baseUrl}/.well-known/agent.json`);
      expect(res.body.name).toBe('Lights');
    } finally {
      await legacy.close();
    }
  });

  it('says "No agent card found" when neither path has a card', async () => {
    const empty = await cardServer({ '/.well-known/agent-card.json': (res) => res.status(404).send('nope') });
    try {
      const res = await t.http().post('/api/agents').set('X-Api-Key', writer).send({ base_url: empty.url }).expect(404);
      expect(res.body.message).toBe(`No agent card found at ${empty.url}`);
      expect(res.body.details.attempts).toEqual([
        { url: `${empty.url}/.well-known/agent-card.json`, problem: 'HTTP 404' },
        { url: `${empty.url}/.well-known/agent.json`, problem: 'HTTP 404' },
      ]);
    } finally {
      await empty.close();
    }
  });

  it('says why a card is unusable, and registers nothing', async () => {
    const bad = await cardServer({
      '/.well-known/agent-card.json': (res) =>
        res.json({ name: 'Half', protocolVersion: '0.3.0', url: '/relative', skills: 'many' }),
    });
    try {
      const res = await t
        .http()
        .post('/api/agents')
        .set('X-Api-Key', writer)
        .send({ base_url: bad.url, id: 'half' })
        .expect(400);
      expect(res.body.message).toMatch(/is not a valid A2A card: .*description is required/);
      await t.http().get('/api/agents/half').set('X-Api-Key', reader).expect(404);
    } finally {
      await bad.close();
    }
  });

  it('refuses an agent the hub could not call (gRPC only)', async () => {
    const grpcOnly = await cardServer({
      '/.well-known/agent-card.json': (res) =>
        res.json({
          protocolVersion: '0.3.0',
          name: 'Grpc Only',
          description: 'Speaks gRPC alone',
          url: '127.0.0.1:50999',
          preferredTransport: 'GRPC',
          version: '1',
          capabilities: {},
          defaultInputModes: ['text/plain'],
          defaultOutputModes: ['text/plain'],
          skills: [{ id: 's', name: 'S', description: 'd', tags: ['t'] }],
        }),
    });
    try {
      const res = await t
        .http()
        .post('/api/agents')
        .set('X-Api-Key', writer)
        .send({ base_url: grpcOnly.url })
        .expect(400);
      expect(res.body.message).toBe(
        'The agent offers no JSON-RPC or HTTP+JSON interface the hub can call (it offers: GRPC)',
      );
    } finally {
      await grpcOnly.close();
    }
  });

  it('says "Failed to resolve agent card: connection refused" for an agent that is not running', async () => {
    const port = await freePort();
    const res = await t
      .http()
      .post('/api/agents')
      .set('X-Api-Key', writer)
      .send({ base_url: `http://127.0.0.1:${port}` })
      .expect(502);
    expect(res.body).toMatchObject({
      code: 'UPSTREAM_FAILED',
      message: 'Failed to resolve agent card: connection refused',
    });
  });

  it('says "Failed to resolve agent card: timeout" for an agent that never answers', async () => {
    const silent = await cardServer({ '/.well-known/agent-card.json': () => undefined });
    try {
      const res = await t
        .http()
        .post('/api/agents')
        .set('X-Api-Key', writer)
        .send({ base_url: silent.url })
        .expect(504);
      expect(res.body).toMatchObject({ code: 'UPSTREAM_TIMEOUT', message: 'Failed to resolve agent card: timeout' });
    } finally {
      await silent.close();
    }
  });

  it.each([
    ['http://169.254.169.254/latest/meta-data', /link-local\/cloud-metadata/],
    ['http://[::ffff:169.254.169.254]/', /link-local\/cloud-metadata/],
    ['http://metadata.google.internal/', /./],
  ])('refuses to fetch a card from %s', async (base, reason) => {
    const res = await t.http().post('/api/agents').set('X-Api-Key', writer).send({ base_url: base }).expect(400);
    expect(res.body.code).toBe('VALIDATION_FAILED');
    expect(res.body.message).toMatch(/^Refusing to connect/);
    expect(res.body.details.reason).toMatch(reason);
  });

  it('validates bad input with 400 naming the field', async () => {
    for (const body of [
      {},
      { base_url: 'not a url' },
      { base_url: 'ftp://x' },
      { base_url: lights.baseUrl, id: 'Bad Id' },
      { base_url: lights.baseUrl, auth: { mode: 'bearer' } },
    ]) {
      const res = await t.http().post('/api/agents').set('X-Api-Key', writer).send(body).expect(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
      expect(res.body.details.fields.length).toBeGreaterThan(0);
    }
  });

  it('reports a card against the A2A schema without registering it', async () => {
    const res = await t
      .http()
      .post('/api/agents/validate')
      .set('X-Api-Key', writer)
      .send({ base_url: music.baseUrl })
      .expect(200);
    expect(res.body).toEqual({
      name: 'Music',
      url: `${music.baseUrl}/v1`,
      protocol_version: '1.0',
      version_valid: true,
      has_skills: true,
      skill_count: 1,
      streaming: false,
      push_notifications: false,
      validation: 'passed',
      problems: [],
      card_url: `${music.baseUrl}/.well-known/agent-card.json`,
    });
    const bad = await cardServer({
      '/.well-known/agent-card.json': (r) => r.json({ name: 'X', protocolVersion: '9.9', url: 'http://x' }),
    });
    try {
      const report = await t
        .http()
        .post('/api/agents/validate')
        .set('X-Api-Key', writer)
        .send({ base_url: bad.url })
        .expect(200);
      expect(report.body).toMatchObject({ validation: 'failed', version_valid: false, has_skills: false });
      expect(report.body.problems.map((p: { path: string }) => p.path)).toEqual(
        expect.arrayContaining(['description', 'protocolVersion']),
      );
    } finally {
      await bad.close();
    }
  });

  it('needs agents:write to change the registry', async () => {
    await t.http().post('/api/agents').set('X-Api-Key', reader).send({ base_url: music.baseUrl }).expect(403);
    await t.http().delete('/api/agents/music').set('X-Api-Key', reader).expect(403);
    await t.http().get('/api/agents').expect(401);
  });

  it('refreshes a card and marks unreachable agents in health checks', async () => {
    const temp = await startMusicAgent();
    await t
      .http()
      .post('/api/agents')
      .set('X-Api-Key', writer)
      .send({ base_url: temp.baseUrl, id: 'temp' })
      .expect(201);
    const refreshed = await t.http().post('/api/agents/temp/refresh').set('X-Api-Key', writer).expect(200);
    expect(refreshed.body).toMatchObject({ agent_id: 'temp', status: 'connected' });
    await temp.close();
    const checked = await t.app.get(AgentHealthChecker).checkAll();
    expect(checked.find((a) => a.id === 'temp')).toMatchObject({
      status: 'unreachable',
      lastCheckError: 'connection refused',
    });
    expect(checked.find((a) => a.id === 'lights')).toMatchObject({ status: 'connected', lastCheckError: null });
    const record = await t.http().get('/api/agents/temp').set('X-Api-Key', reader).expect(200);
    expect(record.body.status).toBe('unreachable');
    await t.http().post('/api/agents/temp/refresh').set('X-Api-Key', writer).expect(502);
  });

  it('answers for an agent that went away with a failed task saying why, not where it lives', async () => {
    const res = await t
      .http()
      .post('/api/agents/temp/v1')
      .set('X-Api-Key', TEST_ADMIN_KEY)
      .send(messageSend('anyone?', { id: 3 }))
      .expect(200);
    expect(res.body.result.status.state).toBe('failed');
    const text = res.body.result.status.message.parts[0].text as string;
    expect(text).toContain('Remote agent temp failed: connection refused');
    expect(text).not.toMatch(/127\.0\.0\.1|http:/);
    // The same, for programs: in the task's metadata, by code.
    expect(res.body.result.metadata).toEqual({
      switchboard_remote_failure: { code: 'UPSTREAM_FAILED', reason: 'connection refused' },
    });
  });

  it('fails the task, and stays up, when a remote agent answers more than OUTBOUND_MAX_RESPONSE_BYTES', async () => {
    const app = express();
    app.get('/.well-known/agent-card.json', (req, res) => {
      res.json({
        protocolVersion: '0.3.0',
        name: 'Chatty',
        description: 'Answers at great length',
        url: `http://${req.headers.host}/rpc`,
        preferredTransport: 'JSONRPC',
        version: '1',
        capabilities: {},
        defaultInputModes: ['text/plain'],
        defaultOutputModes: ['text/plain'],
        skills: [{ id: 'talk', name: 'Talk', description: 'Talks', tags: ['talk'] }],
      });
    });
    app.post('/rpc', (_req, res) => {
      res.json({
        jsonrpc: '2.0',
        id: 1,
        result: { kind: 'message', role: 'agent', messageId: 'm', parts: [{ kind: 'text', text: 'a'.repeat(70_000) }] },
      });
    });
    const server: Server = await new Promise((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      await t.http().post('/api/agents').set('X-Api-Key', writer).send({ base_url: url, id: 'chatty' }).expect(201);
      const res = await t
        .http()
        .post('/api/agents/chatty/v1')
        .set('X-Api-Key', TEST_ADMIN_KEY)
        .send(messageSend('tell me everything', { id: 4 }))
        .expect(200);
      expect(res.body.result.status.state).toBe('failed');
      expect(res.body.result.status.message.parts[0].text).toBe('Remote agent chatty failed: response too large');
      expect(res.body.result.metadata).toEqual({
        switchboard_remote_failure: { code: 'UPSTREAM_FAILED', reason: 'response too large' },
      });
      await t.http().get('/health/live').expect(200);
    } finally {
      await t.http().delete('/api/agents/chatty').set('X-Api-Key', writer);
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('deletes a remote agent, which stops being hosted; built-in agents cannot be deleted', async () => {
    await t.http().delete('/api/agents/temp').set('X-Api-Key', writer).expect(204);
    await t.http().get('/api/agents/temp').set('X-Api-Key', reader).expect(404);
    await t.http().get('/api/agents/temp/.well-known/agent-card.json').expect(404);
    await t.http().delete('/api/agents/temp').set('X-Api-Key', writer).expect(404);
    await t.http().delete('/api/agents/orchestrator').set('X-Api-Key', writer).expect(409);
  });

  it('repairs what a lost change message left: each replica reconciles with the database', async () => {
    const temp = await startMusicAgent();
    try {
      const data = t.app.get(DataSource);
      await data.query(
        `INSERT INTO agents (id, name, base_url, card_url, card, status, auth_mode, created_at, updated_at)
         VALUES ('sneaky', 'Music', $1, $2, $3, 'connected', 'none', now(), now())`,
        [
          temp.baseUrl,
          `${temp.baseUrl}/.well-known/agent-card.json`,
          JSON.stringify((await fetch(`${temp.baseUrl}/.well-known/agent-card.json`).then((r) => r.json())) as object),
        ],
      );
      await t.http().get('/api/agents/sneaky/.well-known/agent-card.json').expect(404);
      await t.app.get(RemoteAgentHosting).reconcile();
      await t.http().get('/api/agents/sneaky/.well-known/agent-card.json').expect(200);
      await data.query(`DELETE FROM agents WHERE id = 'sneaky'`);
      await t.app.get(RemoteAgentHosting).reconcile();
      await t.http().get('/api/agents/sneaky/.well-known/agent-card.json').expect(404);
    } finally {
      await temp.close();
    }
  });

  describe('over gRPC', () => {
    let client: RegistryClient;
    beforeAll(() => {
      client = registryClient(t.grpcAddress);
    });
    afterAll(() => client.close());

    it('lists cards and reads records', async () => {
      const list = await call(client.ListAgentCards, client, {}, { 'x-api-key': reader });
      expect((list.response!.cards_json as string[]).map((c) => JSON.parse(c).name)).toEqual(
        expect.arrayContaining(['Orchestrator', 'Lights']),
      );
      const agent = await call(client.GetAgent, client, { agent_id: 'lights' }, { 'x-api-key': reader });
      expect(agent.response).toMatchObject({
        agent_id: 'lights',
        kind: 'remote',
        status: 'connected',
        auth_mode: 'api_key',
      });
      expect(JSON.parse(agent.response!.card_json as string).name).toBe('Lights');
      const missing = await call(client.GetAgent, client, { agent_id: 'nobody' }, { 'x-api-key': reader });
      expect(missing.error?.code).toBe(GrpcStatus.NOT_FOUND);
    });

    it('registers, validates, refreshes and deletes with the same rules as REST', async () => {
      const temp = await startMusicAgent();
      try {
        const bad = await call(client.RegisterAgent, client, { base_url: 'not a url' }, { 'x-api-key': writer });
        expect(bad.error?.code).toBe(GrpcStatus.INVALID_ARGUMENT);
        expect(bad.error?.details).toMatch(/base_url/);
        const denied = await call(client.RegisterAgent, client, { base_url: temp.baseUrl }, { 'x-api-key': reader });
        expect(denied.error?.code).toBe(GrpcStatus.PERMISSION_DENIED);
        const created = await call(
          client.RegisterAgent,
          client,
          { base_url: temp.baseUrl, id: 'grpc-music' },
          { 'x-api-key': writer },
        );
        expect(created.response).toMatchObject({
          agent_id: 'grpc-music',
          name: 'Music',
          status: 'connected',
          auth_mode: 'none',
        });
        const duplicate = await call(
          client.RegisterAgent,
          client,
          { base_url: temp.baseUrl, id: 'grpc-music' },
          { 'x-api-key': writer },
        );
        expect(duplicate.error?.code).toBe(GrpcStatus.ALREADY_EXISTS);
        const report = await call(
          client.ValidateAgentCard,
          client,
          { base_url: temp.baseUrl },
          { 'x-api-key': writer },
        );
        expect(report.response).toMatchObject({ name: 'Music', validation: 'passed', skill_count: 1 });
        const extended = await call(
          client.GetAgentExtended,
          client,
          { agent_id: 'grpc-music' },
          { 'x-api-key': TEST_ADMIN_KEY },
        );
        expect(extended.response).toMatchObject({ agent: { agent_id: 'grpc-music' }, has_secret: false });
        const refreshed = await call(client.RefreshAgent, client, { agent_id: 'grpc-music' }, { 'x-api-key': writer });
        expect(refreshed.error).toBeUndefined();
        const deleted = await call(client.DeleteAgent, client, { agent_id: 'grpc-music' }, { 'x-api-key': writer });
        expect(deleted.error).toBeUndefined();
        const gone = await call(client.GetAgent, client, { agent_id: 'grpc-music' }, { 'x-api-key': reader });
        expect(gone.error?.code).toBe(GrpcStatus.NOT_FOUND);
      } finally {
        await temp.close();
      }
    });
  });
});

describe('registry rate limit and SSRF defaults (e2e)', () => {
  it('limits registry calls per key and refuses private addresses unless allowed', async () => {
    const t = await startTestApp({ RATE_LIMIT_REGISTRY_PER_MIN: '3', ALLOW_PRIVATE_NETWORK_TARGETS: 'false' });
    try {
      const refused = await t
        .http()
        .post('/api/agents')
        .set('X-Api-Key', TEST_ADMIN_KEY)
        .send({ base_url: 'http://127.0.0.1:9' })
        .expect(400);
      expect(refused.body.message).toMatch(/^Refusing to connect to 127\.0\.0\.1: loopback addresses are not allowed/);
      const lan = await t
        .http()
        .post('/api/agents')
        .set('X-Api-Key', TEST_ADMIN_KEY)
        .send({ base_url: 'http://10.1.2.3' })
        .expect(400);
      expect(lan.body.details.reason).toMatch(/private network addresses are not allowed/);
      await t.http().get('/api/agents').set('X-Api-Key', TEST_ADMIN_KEY).expect(200);
      const limited = await t.http().get('/agents').set('X-Api-Key', TEST_ADMIN_KEY).expect(429);
      expect(limited.headers['retry-after']).toBeDefined();
    } finally {
      await t.close();
    }
  });
});

// Two app instances on one Postgres and one Redis: what one replica registers, the other hosts.
(realDatabaseUrl && realRedisUrl ? describe : describe.skip)('registry across two replicas (e2e)', () => {
  it('hosts an agent registered on one replica on the other, and drops it when deleted there', async () => {
    const first = await startTestApp({ ALLOW_PRIVATE_NETWORK_TARGETS: 'true', RATE_LIMIT_REGISTRY_PER_MIN: '1000' });
    const second = await startTestApp(
      { ALLOW_PRIVATE_NETWORK_TARGETS: 'true', RATE_LIMIT_REGISTRY_PER_MIN: '1000' },
      first.backends,
    );
    const lights = await startLightsAgent();
    const eventually = async (check: () => Promise<boolean>) => {
      for (let i = 0; i < 100 && !(await check()); i++) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(await check()).toBe(true);
    };
    try {
      await first
        .http()
        .post('/api/agents')
        .set('X-Api-Key', TEST_ADMIN_KEY)
        .send({ base_url: lights.baseUrl, id: 'shared' })
        .expect(201);
      await eventually(
        async () => (await second.http().get('/api/agents/shared/.well-known/agent-card.json')).status === 200,
      );
      const reply = await second
        .http()
        .post('/api/agents/shared/v1')
        .set('X-Api-Key', TEST_ADMIN_KEY)
        .send(messageSend('hello'))
        .expect(200);
      expect(reply.body.result.status.state).toBe('completed');
      await first.http().delete('/api/agents/shared').set('X-Api-Key', TEST_ADMIN_KEY).expect(204);
      await eventually(
        async () => (await second.http().get('/api/agents/shared/.well-known/agent-card.json')).status === 404,
      );
    } finally {
      await second.app.close();
      await first.close();
      await lights.close();
    }
  });
});
