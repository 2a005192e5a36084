import { startTestApp, TestApp } from './support/test-app';

// The router's model, loading until the test says how the load ends.
let endLoad: (error: Error) => void;
jest.mock('../src/orchestration/router/semantic/embedding-model', () => ({
  loadEmbeddingModel: () =>
    new Promise((_, reject) => {
      endLoad = reject;
    }),
  releaseEmbeddingModel: () => undefined,
}));

/**
 * A replica is not ready while its router's model loads (its first requests would be routed on
 * card words alone), and is once the load is over - however it ended.
 */
describe('readiness while the router warms up (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ ROUTER_EMBEDDINGS: 'true' });
  }, 90_000);

  afterAll(async () => {
    await t?.close();
  });

  it('answers 503 naming the model until it has loaded or failed, then 200', async () => {
    const waiting = await t.http().get('/health/ready').expect(503);
    expect(waiting.body.error).toEqual({ startup: { status: 'down', message: 'starting: the router model' } });
    expect(waiting.body.details.database.status).toBe('up');
    await t.http().get('/health/live').expect(200);

    endLoad(new Error('ENOENT: model.json is missing'));
    let ready = await t.http().get('/health/ready');
    for (let i = 0; i < 50 && ready.status !== 200; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      ready = await t.http().get('/health/ready');
    }
    expect(ready.status).toBe(200);
    expect(ready.body.details.startup).toEqual({ status: 'up' });
  });
});
