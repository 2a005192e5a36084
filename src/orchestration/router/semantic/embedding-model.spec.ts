import { loadEmbeddingModel, releaseEmbeddingModel } from './embedding-model';

describe('the embedding model worker (real model)', () => {
  it('is shared by its users and stops when the last one releases it', async () => {
    const first = await loadEmbeddingModel();
    const second = await loadEmbeddingModel();
    expect(second).toBe(first);

    releaseEmbeddingModel();
    // One user left: the worker still answers.
    const [vector] = await first.embed(['turn on the lights']);
    expect(vector).toHaveLength(first.dimensions);
    expect(first.stopped()).toBe(false);

    releaseEmbeddingModel();
    for (let i = 0; i < 50 && !first.stopped(); i++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(first.stopped()).toBe(true);
    await expect(first.embed(['hello'])).rejects.toThrow(/stopped/);

    // A later user loads a new one.
    const third = await loadEmbeddingModel();
    expect(third).not.toBe(first);
    expect(third.stopped()).toBe(false);
    releaseEmbeddingModel();
  }, 60_000);
});
