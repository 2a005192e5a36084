import type { Counter } from 'prom-client';
import { EventBus, EventHandler, Subscription } from './event-bus';

/** An EventBus that counts failed publishes and failing subscribers; everything else is the inner bus's. */
export class MeteredEventBus extends EventBus {
  constructor(
    readonly inner: EventBus,
    private readonly failures: Counter<'operation'>,
  ) {
    super();
  }

  get kind(): EventBus['kind'] {
    return this.inner.kind;
  }

  async publish(channel: string, message: unknown): Promise<void> {
    try {
      await this.inner.publish(channel, message);
    } catch (error) {
      this.failures.inc({ operation: 'publish' });
      throw error;
    }
  }

  subscribe(channel: string, handler: EventHandler): Promise<Subscription> {
    return this.inner.subscribe(channel, async (message) => {
      try {
        await handler(message);
      } catch (error) {
        this.failures.inc({ operation: 'handler' });
        throw error;
      }
    });
  }
}
