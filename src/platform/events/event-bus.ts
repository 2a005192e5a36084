export type EventHandler = (message: unknown) => void | Promise<void>;

export interface Subscription {
  unsubscribe(): Promise<void>;
}

/**
 * The publish/subscribe port (see ARCHITECTURE.md). Redis pub/sub when REDIS_URL is set, so a
 * subscriber on one replica hears events published on another; in-process otherwise.
 * Messages are JSON values; handlers always receive their own copy, asynchronously.
 * Delivery is at-most-once: a subscriber that is not connected misses the message.
 */
export abstract class EventBus {
  abstract readonly kind: 'redis' | 'in-process';

  abstract publish(channel: string, message: unknown): Promise<void>;

  /** Resolves once the subscription is active: messages published after that are delivered. */
  abstract subscribe(channel: string, handler: EventHandler): Promise<Subscription>;
}
