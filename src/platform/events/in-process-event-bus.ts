import { EventBus, EventHandler, Subscription } from './event-bus';
import { HandlerSet, serialize } from './handler-set';

/** In-process adapter: one replica only. Delivery happens on a later tick, as with Redis. */
export class InProcessEventBus extends EventBus {
  readonly kind = 'in-process' as const;
  private readonly handlers = new HandlerSet();

  async publish(channel: string, message: unknown): Promise<void> {
    const json = serialize(channel, message);
    setImmediate(() => this.handlers.deliver(channel, json));
  }

  async subscribe(channel: string, handler: EventHandler): Promise<Subscription> {
    this.handlers.add(channel, handler);
    return { unsubscribe: async () => void this.handlers.remove(channel, handler) };
  }

  close(): void {
    this.handlers.clear();
  }
}
