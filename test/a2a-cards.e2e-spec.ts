import { validateAgentCard } from '../src/registry/card/card-validator';
import { startLightsAgent, RemoteAgent } from './support/remote-agents';
import { registerAgent, startTestApp, TestApp } from './support/test-app';

describe('agent cards (e2e)', () => {
  let t: TestApp;
  let lights: RemoteAgent;
  let grpcPort: string;

  beforeAll(async () => {
    t = await startTestApp({ ALLOW_PRIVATE_NETWORK_TARGETS: 'true', RATE_LIMIT_REGISTRY_PER_MIN: '1000' });
    grpcPort = t.grpcAddress.split(':')[1];
    lights = await startLightsAgent();
    await registerAgent(t, lights.baseUrl, 'lights');
  });
  afterAll(async () => {
    await t?.close();
    await lights?.close();
  });

  it.each(['/.well-known/agent-card.json', '/.well-known/agent.json', '/.well-known/agent-card'])(
    "serves the hub's card (the orchestrator's) at %s without a key",
    async (path) => {
      const res = await t.http().get(path).expect(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.headers.vary).toMatch(/A2A-Version/);
      expect(res.body).toMatchObject({ name: 'Orchestrator', protocolVersion: '0.3.0', preferredTransport: 'JSONRPC' });
    },
  );

  it('serves a v0.3 card listing all three transports, the main one included', async () => {
    const card = (await t.http().get('/.well-known/agent-card.json').set('Host', 'hub.example:8080').expect(200)).body;
    expect(card.url).toBe('http://hub.example:8080/api/agents/orchestrator/v1');
    expect(card.additionalInterfaces).toEqual([
      { url: 'http://hub.example:8080/api/agents/orchestrator/v1', transport: 'JSONRPC' },
      { url: 'http://hub.example:8080/api/agents/orchestrator/json', transport: 'HTTP+JSON' },
      { url: `hub.example:${grpcPort}`, transport: 'GRPC' },
    ]);
    expect(card.securitySchemes).toEqual({
      apiKey: { type: 'apiKey', in: 'header', name: 'X-Api-Key', description: expect.any(String) },
      bearer: { type: 'http', scheme: 'bearer', description: expect.any(String) },
    });
    expect(card.security).toEqual([{ apiKey: [] }, { bearer: [] }]);
    expect(card.capabilities).toEqual({ streaming: true, pushNotifications: true, stateTransitionHistory: false });
    expect(card.supportsAuthenticatedExtendedCard).toBe(false);
    expect(validateAgentCard(card, { baseUrl: 'http://hub.example:8080' })).toMatchObject({
      validation: 'passed',
      problems: [],
    });
  });

  it('serves the v1.0 card with the specification JSON form when asked with A2A-Version: 1.0', async () => {
    const card = (
      await t
        .http()
        .get('/.well-known/agent-card.json')
        .set('A2A-Version', '1.0')
        .set('Host', 'hub.example')
        .expect(200)
    ).body;
    expect(card.url).toBeUndefined();
    expect(card.securitySchemes).toEqual({
      apiKey: { apiKeySecurityScheme: { location: 'header', name: 'X-Api-Key', description: expect.any(String) } },
      bearer: { httpAuthSecurityScheme: { scheme: 'bearer', description: expect.any(String) } },
    });
    expect(card.supportedInterfaces).toEqual(
      expect.arrayContaining([
        { url: 'http://hub.example/api/agents/orchestrator/v1', protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
        { url: `hub.example:${grpcPort}`, protocolBinding: 'GRPC', protocolVersion: '1.0', tenant: 'orchestrator' },
        { url: `hub.example:${grpcPort}`, protocolBinding: 'GRPC', protocolVersion: '0.3' },
      ]),
    );
    expect(validateAgentCard(card, { baseUrl: 'http://hub.example' })).toMatchObject({ validation: 'passed' });
  });

  it('never lists, for another agent, an interface where a client would reach the orchestrator', async () => {
    const v03 = (await t.http().get('/api/agents/lights/.well-known/agent-card.json').expect(200)).body;
    expect(v03.additionalInterfaces.map((i: { transport: string }) => i.transport)).toEqual(['JSONRPC', 'HTTP+JSON']);
    expect(v03.url).toBe(`${t.baseUrl}/api/agents/lights/v1`);
    const v1 = (
      await t.http().get('/api/agents/lights/.well-known/agent-card.json').set('A2A-Version', '1.0').expect(200)
    ).body;
    const grpc = v1.supportedInterfaces.filter((i: { protocolBinding: string }) => i.protocolBinding === 'GRPC');
    expect(grpc).toEqual([
      { url: `127.0.0.1:${grpcPort}`, protocolBinding: 'GRPC', protocolVersion: '1.0', tenant: 'lights' },
    ]);
  });

  it("carries the remote agent's name, description and skills with the hub's endpoints and security", async () => {
    const card = (await t.http().get('/api/agents/lights/.well-known/agent-card.json').expect(200)).body;
    expect(card).toMatchObject({
      name: 'Lights',
      description: 'Controls the lights in the house',
      version: '1.2.0',
      skills: [
        { id: 'lights', name: 'Lights control', tags: ['lights', 'home'], examples: ['turn on the kitchen lights'] },
      ],
    });
    expect(JSON.stringify(card)).not.toContain(lights.baseUrl);
  });

  it('ignores X-Forwarded-* headers unless TRUST_PROXY is set', async () => {
    const card = (
      await t
        .http()
        .get('/.well-known/agent-card.json')
        .set('Host', 'real.example')
        .set('X-Forwarded-Host', 'evil.example')
        .expect(200)
    ).body;
    expect(card.url).toBe('http://real.example/api/agents/orchestrator/v1');
  });

  it('answers 404 JSON for the card of an unknown agent', async () => {
    const res = await t.http().get('/api/agents/nobody/.well-known/agent-card.json').expect(404);
    expect(res.body).toMatchObject({ code: 'NOT_FOUND', message: 'Agent not found: nobody' });
  });
});

describe('agent card URLs behind a proxy (e2e)', () => {
  it('uses PUBLIC_URL and PUBLIC_GRPC_ADDRESS when set', async () => {
    const t = await startTestApp({
      PUBLIC_URL: 'https://switchboard.example.com/',
      PUBLIC_GRPC_ADDRESS: 'grpc.example.com:443',
    });
    try {
      const card = (await t.http().get('/.well-known/agent-card.json').expect(200)).body;
      expect(card.url).toBe('https://switchboard.example.com/api/agents/orchestrator/v1');
      expect(card.additionalInterfaces).toContainEqual({ url: 'grpc.example.com:443', transport: 'GRPC' });
    } finally {
      await t.close();
    }
  });

  it('honours X-Forwarded-Proto/Host only with TRUST_PROXY', async () => {
    const trusting = await startTestApp({ TRUST_PROXY: 'true' });
    try {
      const card = (
        await trusting
          .http()
          .get('/.well-known/agent-card.json')
          .set('X-Forwarded-Proto', 'https')
          .set('X-Forwarded-Host', 'ha.example')
          .expect(200)
      ).body;
      expect(card.url).toBe('https://ha.example/api/agents/orchestrator/v1');
    } finally {
      await trusting.close();
    }
  });
});
