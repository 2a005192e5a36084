import { startLightsAgent, RemoteAgent } from './support/remote-agents';
import { registerAgent, startTestApp, TEST_ADMIN_KEY, TestApp } from './support/test-app';

// The model cannot load (its worker reports the model package's files missing): the hub must still route.
jest.mock('../src/orchestration/router/semantic/embedding-model', () => ({
  loadEmbeddingModel: () => Promise.reject(new Error('ENOENT: model.json is missing')),
  releaseEmbeddingModel: () => undefined,
}));

describe('routing when the sentence-embedding model cannot load (e2e)', () => {
  let t: TestApp;
  let lights: RemoteAgent;

  beforeAll(async () => {
    lights = await startLightsAgent();
    t = await startTestApp({ ALLOW_PRIVATE_NETWORK_TARGETS: 'true', ROUTER_EMBEDDINGS: 'true' });
    await registerAgent(t, lights.baseUrl, 'lights');
  }, 90_000);

  afterAll(async () => {
    await t?.close();
    await lights?.close();
  });

  it('routes on card words and says health is degraded, with the reason', async () => {
    const health = async () =>
      (await t.http().get('/internal/orchestration/health').set('X-Api-Key', TEST_ADMIN_KEY).expect(200)).body;
    let report = await health();
    for (let i = 0; i < 50 && report.router.embeddings.state === 'loading'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      report = await health();
    }
    expect(report.status).toBe('degraded');
    expect(report.router.embeddings).toEqual({ state: 'failed', reason: 'ENOENT: model.json is missing' });
    expect(report.warnings).toContain(
      'router: the sentence-embedding model could not load (ENOENT: model.json is missing); routing on card words only',
    );
    // Readiness is not lost over it: the replica still serves.
    await t.http().get('/health/ready').expect(200);

    const answer = await t
      .http()
      .post('/api/conversation')
      .set('X-Api-Key', TEST_ADMIN_KEY)
      .send({ text: 'turn on the porch lights', context: { conversationId: null }, promptOverride: null })
      .expect(200);
    expect(answer.body.text).toBe('Done: turn on the porch lights');
  });
});
