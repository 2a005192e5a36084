import { InMemoryKeyValueStore } from '../kv/in-memory-key-value.store';
import { KeyValueThrottlerStorage } from './key-value-throttler.storage';

const MINUTE = 60_000;

function counted(): { kv: InMemoryKeyValueStore; claims: () => number } {
  const kv = new InMemoryKeyValueStore();
  const claim = jest.spyOn(kv, 'claim');
  return { kv, claims: () => claim.mock.calls.length };
}

describe('KeyValueThrottlerStorage', () => {
  it('lets a busy caller through on claimed leases, counting every request, with few store calls', async () => {
    const { kv, claims } = counted();
    const storage = new KeyValueThrottlerStorage(kv);
    const hits: number[] = [];
    for (let i = 0; i < 1000; i++) hits.push((await storage.increment('busy', MINUTE, 100_000)).totalHits);
    expect(hits).toEqual(Array.from({ length: 1000 }, (_, i) => i + 1));
    expect(claims()).toBeLessThan(25);
  });

  it("claims a busy caller's next lease before the last runs out, so its requests do not wait for the store", async () => {
    const kv = new InMemoryKeyValueStore();
    const claim = kv.claim.bind(kv);
    // A store that answers a claim only when the test lets it: between requests, as a store that
    // answers before the caller's next request comes.
    const unanswered: (() => void)[] = [];
    jest
      .spyOn(kv, 'claim')
      .mockImplementation((...args) => new Promise((resolve) => unanswered.push(() => resolve(claim(...args)))));
    const settled = () => new Promise((resolve) => setImmediate(resolve));
    const answer = async () => {
      while (unanswered.length) unanswered.shift()!();
      await settled();
    };
    const storage = new KeyValueThrottlerStorage(kv);
    let waited = 0;
    for (let i = 0; i < 300; i++) {
      let done = false;
      const request = storage.increment('paced', MINUTE, 100_000).then(() => (done = true));
      await settled();
      if (!done) {
        // Past the first claims (1, 2, 4, 8 requests), no request should find its lease spent.
        if (i >= 20) waited++;
        await answer();
        await request;
      }
      await answer();
    }
    expect(waited).toBe(0);
  });

  it('keeps at most 10,000 leases, dropping the one claimed longest ago', async () => {
    const { kv, claims } = counted();
    const storage = new KeyValueThrottlerStorage(kv);
    const leases = (storage as unknown as { leases: Map<string, unknown> }).leases;
    await storage.increment('first', MINUTE, 100_000);
    for (let i = 0; i < 10_000; i++) await storage.increment(`caller-${i}`, MINUTE, 100_000);
    expect(leases.size).toBe(10_000);
    expect(leases.has('first')).toBe(false);
    expect(leases.has('caller-9999')).toBe(true);
    // The dropped caller is let through on a new claim.
    const before = claims();
    await expect(storage.increment('first', MINUTE, 100_000)).resolves.toMatchObject({ isBlocked: false });
    expect(claims()).toBe(before + 1);
  });

  it('counts a small limit exactly, then refuses until the window ends without asking the store again', async () => {
    const { kv, claims } = counted();
    const storage = new KeyValueThrottlerStorage(kv);
    const records = [];
    for (let i = 0; i < 8; i++) records.push(await storage.increment('small', 300, 5));
    expect(records.map((r) => r.isBlocked)).toEqual([false, false, false, false, false, true, true, true]);
    expect(records.slice(0, 5).map((r) => r.totalHits)).toEqual([1, 2, 3, 4, 5]);
    expect(records[5]).toMatchObject({ totalHits: 6, timeToExpire: 1, timeToBlockExpire: 1 });
    expect(claims()).toBe(6);
    await new Promise((resolve) => setTimeout(resolve, 400));
    await expect(storage.increment('small', 300, 5)).resolves.toMatchObject({ isBlocked: false, totalHits: 1 });
  });

  it('shares one claim in flight among concurrent requests of a caller', async () => {
    const { kv, claims } = counted();
    const storage = new KeyValueThrottlerStorage(kv);
    const records = await Promise.all(Array.from({ length: 20 }, () => storage.increment('burst', MINUTE, 1000)));
    expect(records.every((r) => !r.isBlocked)).toBe(true);
    expect(records.map((r) => r.totalHits).sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(claims()).toBeLessThanOrEqual(6);
  });

  it('holds a limit exactly across two replicas sharing the store', async () => {
    const kv = new InMemoryKeyValueStore();
    const replicas = [new KeyValueThrottlerStorage(kv), new KeyValueThrottlerStorage(kv)];
    const records = [];
    for (let i = 0; i < 300; i++) records.push(await replicas[i % 2].increment('shared', MINUTE, 200));
    expect(records.filter((r) => !r.isBlocked)).toHaveLength(200);
    expect(records.slice(-20).every((r) => r.isBlocked)).toBe(true);
  });

  it('claims one at a time for a caller who sends a request now and then', async () => {
    const { kv } = counted();
    const storage = new KeyValueThrottlerStorage(kv);
    const now = jest.spyOn(Date, 'now');
    let clock = 1_000_000;
    now.mockImplementation(() => clock);
    try {
      for (let i = 0; i < 5; i++) {
        await storage.increment('slow', MINUTE, 1600);
        clock += 2_000;
      }
      // Each request claimed one: the window's count is what was let through, nothing held back.
      await expect(kv.claim('rate-limit:slow', MINUTE, 1600, 1)).resolves.toMatchObject({ count: 6 });
    } finally {
      now.mockRestore();
    }
  });
});
