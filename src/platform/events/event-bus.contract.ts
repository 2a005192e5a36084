import { Logger } from '@nestjs/common';
import { EventBus } from './event-bus';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Collects what a handler receives and lets a test wait for a number of messages. */
export class Inbox {
  readonly messages: unknown[] = [];
  private waiters: { count: number; resolve: () => void }[] = [];

  readonly handler = (message: unknown): void => {
    this.messages.push(message);
    this.waiters = this.waiters.filter((w) => (this.messages.length >= w.count ? (w.resolve(), false) : true));
  };

  async waitFor(count: number, timeoutMs = 2_000): Promise<unknown[]> {
    if (this.messages.length >= count) return this.messages;
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        new Promise<void>((resolve) => this.waiters.push({ count, resolve })),
        new Promise<never>((_, reject) => {
          timer = setTimeout(
            () => reject(new Error(`expected ${count} messages, got ${this.messages.length}`)),
            timeoutMs,
          );
        }),
      ]);
    } finally {
      clearTimeout(timer);
    }
    return this.messages;
  }
}

/**
 * The behaviour every EventBus adapter must have. `create` returns a bus; `peer` returns a bus
 * that shares the backend as another replica would (for in-process adapters: the same bus).
 */
export function describeEventBusContract(
  name: string,
  setup: () => Promise<{
    create: () => Promise<EventBus>;
    peer: () => Promise<EventBus>;
    teardown: () => Promise<void>;
  }>,
): void {
  describe(`EventBus contract: ${name}`, () => {
    let env: Awaited<ReturnType<typeof setup>>;
    let bus: EventBus;

    beforeAll(async () => {
      env = await setup();
      bus = await env.create();
    });
    afterAll(async () => env.teardown());

    it('delivers a published message to a subscriber, as a copy', async () => {
      const inbox = new Inbox();
      await bus.subscribe('orders', inbox.handler);
      const message = { id: 1, items: ['a', 'b'], nested: { ok: true } };
      await bus.publish('orders', message);
      const [received] = await inbox.waitFor(1);
      expect(received).toEqual(message);
      expect(received).not.toBe(message);
    });

    it('delivers to every subscriber of a channel and to no other channel', async () => {
      const first = new Inbox();
      const second = new Inbox();
      const elsewhere = new Inbox();
      await bus.subscribe('fan-out', first.handler);
      await bus.subscribe('fan-out', second.handler);
      await bus.subscribe('fan-out-other', elsewhere.handler);
      await bus.publish('fan-out', 'hello');
      await expect(first.waitFor(1)).resolves.toEqual(['hello']);
      await expect(second.waitFor(1)).resolves.toEqual(['hello']);
      await sleep(100);
      expect(elsewhere.messages).toEqual([]);
    });

    it('keeps the order of messages on a channel', async () => {
      const inbox = new Inbox();
      await bus.subscribe('ordered', inbox.handler);
      for (let i = 0; i < 20; i++) await bus.publish('ordered', i);
      await expect(inbox.waitFor(20)).resolves.toEqual(Array.from({ length: 20 }, (_, i) => i));
    });

    it('stops delivering after unsubscribe, leaving other subscribers', async () => {
      const leaving = new Inbox();
      const staying = new Inbox();
      const subscription = await bus.subscribe('leave', leaving.handler);
      await bus.subscribe('leave', staying.handler);
      await subscription.unsubscribe();
      await bus.publish('leave', 'after');
      await staying.waitFor(1);
      await sleep(100);
      expect(leaving.messages).toEqual([]);
    });

    it('resubscribes cleanly after the last subscriber left', async () => {
      const first = new Inbox();
      await (await bus.subscribe('again', first.handler)).unsubscribe();
      const second = new Inbox();
      await bus.subscribe('again', second.handler);
      await bus.publish('again', 'back');
      await expect(second.waitFor(1)).resolves.toEqual(['back']);
      expect(first.messages).toEqual([]);
    });

    it('keeps delivering to others when a handler throws, and reports the failure', async () => {
      const reported = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
      const inbox = new Inbox();
      await bus.subscribe('faulty', () => {
        throw new Error('handler bug');
      });
      await bus.subscribe('faulty', async () => Promise.reject(new Error('async handler bug')));
      await bus.subscribe('faulty', inbox.handler);
      await bus.publish('faulty', 'still here');
      await expect(inbox.waitFor(1)).resolves.toEqual(['still here']);
      await sleep(50);
      expect(reported.mock.calls.map(([message]) => message)).toEqual(
        expect.arrayContaining([expect.stringContaining('handler bug'), expect.stringContaining('async handler bug')]),
      );
      reported.mockRestore();
    });

    it('refuses a message that is not JSON', async () => {
      await expect(bus.publish('bad', undefined)).rejects.toThrow(TypeError);
    });

    it('delivers messages published by another replica', async () => {
      const peer = await env.peer();
      const inbox = new Inbox();
      await bus.subscribe('cross-replica', inbox.handler);
      await peer.publish('cross-replica', { from: 'peer' });
      await expect(inbox.waitFor(1)).resolves.toEqual([{ from: 'peer' }]);
    });
  });
}
