import { RedisConnection } from '../redis/redis-connection';
import { EventBus, EventHandler, Subscription } from './event-bus';
import { HandlerSet, serialize } from './handler-set';

/**
 * Redis pub/sub adapter: one Redis subscription per channel per process, fanned out locally.
 * Channels are namespaced with the key prefix so several deployments can share a Redis.
 * Subscription changes run one at a time, so a SUBSCRIBE never races an UNSUBSCRIBE.
 */
export class RedisEventBus extends EventBus {
  readonly kind = 'redis' as const;
  private readonly handlers = new HandlerSet();
  private changes: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly redis: RedisConnection,
    private readonly prefix: string,
  ) {
    super();
  }

  async publish(channel: string, message: unknown): Promise<void> {
    const json = serialize(channel, message);
    await this.redis.run((c) => c.publish(this.channel(channel), json));
  }

  async subscribe(channel: string, handler: EventHandler): Promise<Subscription> {
    await this.serially(async () => {
      if (!this.handlers.add(channel, handler)) return;
      try {
        const subscriber = await this.redis.subscriber();
        await this.redis.run(() =>
          subscriber.subscribe(this.channel(channel), (json: string) => this.handlers.deliver(channel, json)),
        );
      } catch (error) {
        this.handlers.remove(channel, handler);
        throw error;
      }
    });
    return {
      unsubscribe: () =>
        this.serially(async () => {
          if (!this.handlers.remove(channel, handler)) return;
          const subscriber = await this.redis.subscriber();
          await this.redis.run(() => subscriber.unsubscribe(this.channel(channel)));
        }),
    };
  }

  private serially(change: () => Promise<void>): Promise<void> {
    const next = this.changes.then(change);
    this.changes = next.catch(() => undefined);
    return next;
  }

  private channel(channel: string): string {
    return `${this.prefix}events:${channel}`;
  }
}
