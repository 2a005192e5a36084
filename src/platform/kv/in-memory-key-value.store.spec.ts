import { describeKeyValueStoreContract } from './key-value-store.contract';
import { InMemoryKeyValueStore } from './in-memory-key-value.store';

describeKeyValueStoreContract('in-process', async () => {
  const stores: InMemoryKeyValueStore[] = [];
  const create = async () => {
    const store = new InMemoryKeyValueStore();
    stores.push(store);
    return store;
  };
  return { create, isolated: create, teardown: async () => stores.forEach((s) => s.close()) };
});

describe('InMemoryKeyValueStore', () => {
  it('sweeps expired entries it is never asked about again', async () => {
    let now = 1_000;
    const store = new InMemoryKeyValueStore(() => now);
    await store.set('k', 'v', { ttlMs: 10 });
    now += 11;
    (store as unknown as { sweep(): void }).sweep();
    expect((store as unknown as { entries: Map<string, unknown> }).entries.size).toBe(0);
    store.close();
  });
});
