import { KeyValueStore } from './key-value-store';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The behaviour every KeyValueStore adapter must have. `create` returns a store on an empty
 * namespace; `isolated` returns a store on a different namespace of the same backend.
 */
export function describeKeyValueStoreContract(
  name: string,
  setup: () => Promise<{
    create: () => Promise<KeyValueStore>;
    isolated: () => Promise<KeyValueStore>;
    teardown: () => Promise<void>;
  }>,
): void {
  describe(`KeyValueStore contract: ${name}`, () => {
    let env: Awaited<ReturnType<typeof setup>>;
    let store: KeyValueStore;

    beforeAll(async () => {
      env = await setup();
      store = await env.create();
    });
    afterAll(async () => env.teardown());

    it('returns null for a missing key', async () => {
      await expect(store.get('missing')).resolves.toBeNull();
    });

    it('stores a value and returns it with the etag of the write', async () => {
      const etag = await store.set('a', 'hello');
      await expect(store.get('a')).resolves.toEqual({ value: 'hello', etag });
    });

    it('keeps unicode and large values intact', async () => {
      const value = `${'ü😀'.repeat(1000)}${'x'.repeat(200_000)}`;
      await store.set('big', value);
      expect((await store.get('big'))?.value).toBe(value);
    });

    it('gives every write a new etag', async () => {
      const first = await store.set('b', 'same');
      const second = await store.set('b', 'same');
      expect(second).not.toBe(first);
      expect((await store.get('b'))?.etag).toBe(second);
    });

    it('expires a value after its TTL', async () => {
      await store.set('ttl', 'soon gone', { ttlMs: 150 });
      await expect(store.get('ttl')).resolves.toMatchObject({ value: 'soon gone' });
      await sleep(400);
      await expect(store.get('ttl')).resolves.toBeNull();
    });

    it('sends an unconfirmed write before anything that follows, and reports its failure', async () => {
      const failures: unknown[] = [];
      await store.setUnconfirmed('unconfirmed', 'sent', { ttlMs: 60_000 }, (error) => failures.push(error));
      await expect(store.get('unconfirmed')).resolves.toMatchObject({ value: 'sent' });
      await store.setUnconfirmed('unconfirmed', 'bad ttl', { ttlMs: -1 }, (error) => failures.push(error));
      await sleep(50);
      expect(failures).toHaveLength(1);
      expect(failures[0]).toBeInstanceOf(RangeError);
      await expect(store.get('unconfirmed')).resolves.toMatchObject({ value: 'sent' });
    });

    it('renews the TTL of a value it reads, and leaves missing keys missing', async () => {
      const etag = await store.set('sliding', 'kept', { ttlMs: 400 });
      await sleep(250);
      await expect(store.getAndRenew('sliding', 400)).resolves.toEqual({ value: 'kept', etag });
      await sleep(250);
      // Past the first TTL, within the renewed one.
      await expect(store.get('sliding')).resolves.toEqual({ value: 'kept', etag });
      await sleep(400);
      await expect(store.get('sliding')).resolves.toBeNull();
      await expect(store.getAndRenew('never-set', 400)).resolves.toBeNull();
      await expect(store.get('never-set')).resolves.toBeNull();
      await expect(store.getAndRenew('sliding', 0)).rejects.toThrow(RangeError);
    });

    it('drops the TTL when a value is rewritten without one', async () => {
      await store.set('persist', 'v1', { ttlMs: 150 });
      await store.set('persist', 'v2');
      await sleep(400);
      await expect(store.get('persist')).resolves.toMatchObject({ value: 'v2' });
    });

    it('rejects TTLs that are not positive whole milliseconds', async () => {
      await expect(store.set('bad-ttl', 'x', { ttlMs: 0 })).rejects.toThrow(RangeError);
      await expect(store.set('bad-ttl', 'x', { ttlMs: 1.5 })).rejects.toThrow(RangeError);
      await expect(store.claim('bad-ttl', -1, 10, 1)).rejects.toThrow(RangeError);
      await expect(store.get('bad-ttl')).resolves.toBeNull();
    });

    it('deletes, reporting whether the key existed', async () => {
      await store.set('del', 'x');
      await expect(store.delete('del')).resolves.toBe(true);
      await expect(store.delete('del')).resolves.toBe(false);
      await expect(store.get('del')).resolves.toBeNull();
    });

    describe('compareAndSet', () => {
      it('creates only when absent if the expected etag is null', async () => {
        const created = await store.compareAndSet('cas-new', null, 'first');
        expect(created.ok).toBe(true);
        const again = await store.compareAndSet('cas-new', null, 'second');
        expect(again).toEqual({ ok: false, current: { value: 'first', etag: (created as { etag: string }).etag } });
      });

      it('writes with the current etag and refuses a stale one, leaving the value alone', async () => {
        const etag = await store.set('cas', 'v1');
        const won = await store.compareAndSet('cas', etag, 'v2');
        expect(won.ok).toBe(true);
        const lost = await store.compareAndSet('cas', etag, 'v3');
        expect(lost.ok).toBe(false);
        await expect(store.get('cas')).resolves.toEqual({ value: 'v2', etag: (won as { etag: string }).etag });
      });

      it('fails on a missing key when an etag is expected', async () => {
        await expect(store.compareAndSet('cas-missing', 'some-etag', 'x')).resolves.toEqual({
          ok: false,
          current: null,
        });
      });

      it('never matches an etag from before a delete (no ABA)', async () => {
        const old = await store.set('aba', 'v1');
        await store.delete('aba');
        await store.set('aba', 'v1');
        await expect(store.compareAndSet('aba', old, 'v2')).resolves.toMatchObject({ ok: false });
      });

      it('applies a TTL to the written value', async () => {
        await store.compareAndSet('cas-ttl', null, 'x', { ttlMs: 150 });
        await sleep(400);
        await expect(store.get('cas-ttl')).resolves.toBeNull();
      });

      it('loses no update when many writers race on one key', async () => {
        await store.set('counter', '0');
        const writer = async () => {
          for (;;) {
            const current = (await store.get('counter'))!;
            const next = String(Number(current.value) + 1);
            if ((await store.compareAndSet('counter', current.etag, next)).ok) return;
          }
        };
        await Promise.all(Array.from({ length: 25 }, writer));
        expect((await store.get('counter'))?.value).toBe('25');
      });
    });

    describe('claim', () => {
      it('grants one at a time under a small limit, reports the time left, and grants nothing once it is reached', async () => {
        expect(await store.claim('hits', 60_000, 3, 64)).toMatchObject({ count: 1, granted: 1 });
        expect(await store.claim('hits', 60_000, 3, 64)).toMatchObject({ count: 2, granted: 1 });
        const third = await store.claim('hits', 60_000, 3, 64);
        expect(third).toMatchObject({ count: 3, granted: 1 });
        expect(third.ttlMs).toBeGreaterThan(55_000);
        expect(third.ttlMs).toBeLessThanOrEqual(60_000);
        expect(await store.claim('hits', 60_000, 3, 64)).toMatchObject({ count: 3, granted: 0 });
      });

      it('grants at most what was asked and a sixteenth of what is left, down to one by one', async () => {
        expect(await store.claim('share', 60_000, 1600, 64)).toMatchObject({ count: 64, granted: 64 });
        expect(await store.claim('share', 60_000, 1600, 8)).toMatchObject({ count: 72, granted: 8 });
        expect(await store.claim('share-2', 60_000, 160, 64)).toMatchObject({ count: 10, granted: 10 });
        expect(await store.claim('share-2', 60_000, 160, 64)).toMatchObject({ count: 19, granted: 9 });
        expect(await store.claim('share-3', 60_000, 31, 64)).toMatchObject({ count: 1, granted: 1 });
      });

      it('starts again after the window ends', async () => {
        await store.claim('window', 150, 2, 1);
        await store.claim('window', 150, 2, 1);
        await expect(store.claim('window', 150, 2, 1)).resolves.toMatchObject({ granted: 0 });
        await sleep(400);
        await expect(store.claim('window', 150, 2, 1)).resolves.toMatchObject({ count: 1, granted: 1 });
      });

      it('never grants past the limit to concurrent claims', async () => {
        const claims = await Promise.all(Array.from({ length: 100 }, () => store.claim('burst', 60_000, 200, 64)));
        expect(claims.reduce((sum, c) => sum + c.granted, 0)).toBe(200);
        expect(Math.max(...claims.map((c) => c.count))).toBe(200);
        expect(claims.filter((c) => c.granted === 0).length).toBeGreaterThan(0);
      });

      it('rejects a claim for nothing or a limit that is not a whole number', async () => {
        await expect(store.claim('bad-claim', 60_000, 10, 0)).rejects.toThrow(RangeError);
        await expect(store.claim('bad-claim', 60_000, 1.5, 1)).rejects.toThrow(RangeError);
      });
    });

    describe('takeToken', () => {
      const slow = { capacity: 5, refillPerSecond: 1 / 3600 };

      it('lets exactly the capacity through of many concurrent takes, and counts each down', async () => {
        const takes = await Promise.all(Array.from({ length: 40 }, () => store.takeToken('bucket-burst', slow)));
        const allowed = takes.filter((take) => take.allowed);
        expect(allowed).toHaveLength(5);
        expect(allowed.map((take) => Math.floor(take.tokens)).sort()).toEqual([0, 1, 2, 3, 4]);
        for (const refused of takes.filter((take) => !take.allowed)) {
          expect(refused.tokens).toBeLessThan(1);
          // About an hour for the next token (a little less as the bucket refills meanwhile).
          expect(Math.round(refused.retryAfterMs / 60_000)).toBe(60);
        }
        await expect(store.takeToken('bucket-burst', slow)).resolves.toMatchObject({ allowed: false });
      });

      it('refills continuously, up to the capacity', async () => {
        const fast = { capacity: 2, refillPerSecond: 10 }; // a token every 100 ms
        expect(await store.takeToken('bucket-refill', fast)).toMatchObject({ allowed: true, retryAfterMs: 0 });
        expect(await store.takeToken('bucket-refill', fast)).toMatchObject({ allowed: true });
        const refused = await store.takeToken('bucket-refill', fast);
        expect(refused.allowed).toBe(false);
        expect(refused.retryAfterMs).toBeGreaterThan(0);
        expect(refused.retryAfterMs).toBeLessThanOrEqual(100);
        expect(refused.fullInMs).toBeLessThanOrEqual(200);
        await sleep(150);
        expect(await store.takeToken('bucket-refill', fast)).toMatchObject({ allowed: true });
        await sleep(1_000); // ten tokens' worth: the bucket holds two
        expect(await store.takeToken('bucket-refill', fast)).toMatchObject({ allowed: true });
        expect(await store.takeToken('bucket-refill', fast)).toMatchObject({ allowed: true });
        await expect(store.takeToken('bucket-refill', fast)).resolves.toMatchObject({ allowed: false });
      });

      it('is full when missing: the key expires once the bucket is full again, and delete refills it', async () => {
        const quick = { capacity: 1, refillPerSecond: 20 }; // full 50 ms after a take
        expect(await store.takeToken('bucket-ttl', quick)).toMatchObject({ allowed: true, fullInMs: 50 });
        await expect(store.get('bucket-ttl')).resolves.not.toBeNull();
        await sleep(300);
        await expect(store.get('bucket-ttl')).resolves.toBeNull();

        expect(await store.takeToken('bucket-del', slow)).toMatchObject({ allowed: true, tokens: 4 });
        await store.delete('bucket-del');
        expect(await store.takeToken('bucket-del', slow)).toMatchObject({ allowed: true, tokens: 4 });
      });

      it('rejects a bucket without a positive whole capacity or a positive refill', async () => {
        await expect(store.takeToken('bucket-bad', { capacity: 0, refillPerSecond: 1 })).rejects.toThrow(RangeError);
        await expect(store.takeToken('bucket-bad', { capacity: 1.5, refillPerSecond: 1 })).rejects.toThrow(RangeError);
        await expect(store.takeToken('bucket-bad', { capacity: 1, refillPerSecond: 0 })).rejects.toThrow(RangeError);
        await expect(store.get('bucket-bad')).resolves.toBeNull();
      });
    });

    describe('flags', () => {
      it('flags a key with its write, and lists flags up to a time, oldest first', async () => {
        await store.set('f-a', '1', { flag: { set: 'owed', at: 2_000 } });
        await store.compareAndSet('f-b', null, '1', { flag: { set: 'owed', at: 1_000 } });
        await store.set('f-c', '1', { flag: { set: 'other', at: 500 } });
        await expect(store.flagged('owed', 5_000, 10)).resolves.toEqual([
          { key: 'f-b', at: 1_000 },
          { key: 'f-a', at: 2_000 },
        ]);
        await expect(store.flagged('owed', 1_500, 10)).resolves.toEqual([{ key: 'f-b', at: 1_000 }]);
        await expect(store.flagged('owed', 5_000, 1)).resolves.toHaveLength(1);
      });

      it('flags nothing when a compare-and-set is refused', async () => {
        await store.set('f-d', '1');
        const written = await store.compareAndSet('f-d', 'stale', '2', { flag: { set: 'refused', at: 1 } });
        expect(written.ok).toBe(false);
        await expect(store.flagged('refused', Date.now(), 10)).resolves.toEqual([]);
      });

      it('clears a flag only if it is not newer than what was done', async () => {
        await store.set('f-e', '1', { flag: { set: 'done', at: 100 } });
        await store.set('f-f', '1', { flag: { set: 'done', at: 100 } });
        await store.set('f-f', '2', { flag: { set: 'done', at: 300 } }); // owed again, later
        await store.unflag('done', [
          { key: 'f-e', upTo: 100 },
          { key: 'f-f', upTo: 200 },
          { key: 'never-flagged', upTo: 1_000 },
        ]);
        await expect(store.flagged('done', 1_000, 10)).resolves.toEqual([{ key: 'f-f', at: 300 }]);
        await store.unflag('done', []);
      });
    });

    it('keeps namespaces apart', async () => {
      const other = await env.isolated();
      await store.set('shared-name', 'mine');
      await expect(other.get('shared-name')).resolves.toBeNull();
      await store.claim('hits-ns', 60_000, 5, 1);
      await expect(other.claim('hits-ns', 60_000, 5, 1)).resolves.toMatchObject({ count: 1 });
      const rule = { capacity: 1, refillPerSecond: 1 / 3600 };
      await store.takeToken('bucket-ns', rule);
      await expect(other.takeToken('bucket-ns', rule)).resolves.toMatchObject({ allowed: true });
    });

    it('answers ping', async () => {
      await expect(store.ping()).resolves.toBeUndefined();
    });
  });
}
