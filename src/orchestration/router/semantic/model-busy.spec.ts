import { AppConfig } from '../../../platform/config/app-config';
import { validateEnvironment } from '../../../platform/config/environment';
import { agentCard as card } from '../agent-card.fixture';
import { AgentRouter } from '../agent-router';
import { SentenceEncoder } from './sentence-encoder';

/**
 * A stand-in model (no weights loaded): vectors from characters, as much waiting work as the test
 * says, and a batch that fails, or a worker that has stopped, when the test says so.
 */
const model = { waiting: 0, batches: 0, failNext: false, stopped: false };
jest.mock('./embedding-model', () => ({
  releaseEmbeddingModel: () => undefined,
  loadEmbeddingModel: () =>
    Promise.resolve({
      dimensions: 8,
      loadMs: 1,
      queued: () => model.waiting,
      stopped: () => model.stopped,
      embed: (texts: string[]) => {
        model.batches++;
        if (model.failNext || model.stopped) {
          model.failNext = false;
          return Promise.reject(new Error(model.stopped ? 'the embedding worker stopped (exit code 1)' : 'bad batch'));
        }
        return Promise.resolve(
          texts.map((text) => {
            const v = new Float32Array(8);
            for (let i = 0; i < text.length; i++) v[text.charCodeAt(i) % 8] += 1;
            const norm = Math.hypot(...v) || 1;
            return v.map((x) => x / norm);
          }),
        );
      },
    }),
}));

describe('the router when the sentence-embedding model has too much work waiting', () => {
  const agents = [
    card('weather', 'Weather', 'Forecasts and current conditions', ['weather', 'rain']),
    card('music', 'Music', 'Plays songs', ['music', 'song']),
  ];
  const config = new AppConfig(validateEnvironment({}));
  const encoder = new SentenceEncoder(config);
  const router = new AgentRouter(config, encoder);
  const route = async (text: string) => (await router.route({ text, multiAgent: true }, agents, 1)).routing;

  beforeAll(async () => {
    await router.prepare(() => agents);
    expect(encoder.status).toMatchObject({ state: 'ready', dimensions: 8 });
  });

  it('consults the model while little waits, and routes on card words once 8 batches wait', async () => {
    model.waiting = 7;
    expect((await route('do I need an umbrella today')).semantic).toBe(true);

    model.waiting = 8;
    const before = model.batches;
    const busy = await route('should I take a coat');
    expect(busy.semantic).toBeUndefined();
    expect(busy.reasoning).toMatch(/the model was busy/);
    expect(model.batches).toBe(before);
    // Busy is not broken: health still says ready, and the next quiet request uses the model.
    expect(encoder.status.state).toBe('ready');
    model.waiting = 0;
    expect((await route('should I take a coat')).semantic).toBe(true);
  });

  it('never consults the model for a request the card words decide', async () => {
    model.waiting = 0;
    const before = model.batches;
    const routing = await route('play a song from my music');
    expect(routing).toMatchObject({ agentId: 'music' });
    expect(routing.semantic).toBeUndefined();
    expect(model.batches).toBe(before);
  });

  it('routes on card words when a batch fails, and marks the model failed only once its worker is gone', async () => {
    model.waiting = 0;
    model.failNext = true;
    const failed = await route('is it going to be wet outside');
    expect(failed.semantic).toBeUndefined();
    expect(encoder.status.state).toBe('ready');
    expect((await route('is it going to be wet later on')).semantic).toBe(true);

    model.stopped = true;
    expect((await route('will I need boots this evening')).semantic).toBeUndefined();
    expect(encoder.status).toEqual({ state: 'failed', reason: 'the embedding worker stopped (exit code 1)' });
    const batches = model.batches;
    expect((await route('will I need boots tonight')).semantic).toBeUndefined();
    expect(model.batches).toBe(batches); // no longer consulted
  });
});
