import { Logger } from '@nestjs/common';
import type { EventHandler } from './event-bus';

const logger = new Logger('EventBus');

/** Handlers per channel; a failing handler is logged and never affects the others. */
export class HandlerSet {
  private readonly byChannel = new Map<string, Set<EventHandler>>();

  /** Returns true when this is the channel's first handler. */
  add(channel: string, handler: EventHandler): boolean {
    let handlers = this.byChannel.get(channel);
    const first = handlers === undefined;
    if (!handlers) this.byChannel.set(channel, (handlers = new Set()));
    handlers.add(handler);
    return first;
  }

  /** Returns true when the channel has no handlers left. */
  remove(channel: string, handler: EventHandler): boolean {
    const handlers = this.byChannel.get(channel);
    if (!handlers?.delete(handler)) return false;
    if (handlers.size > 0) return false;
    this.byChannel.delete(channel);
    return true;
  }

  has(channel: string): boolean {
    return this.byChannel.has(channel);
  }

  /** Delivers a serialized message: each handler parses its own copy. */
  deliver(channel: string, json: string): void {
    for (const handler of this.byChannel.get(channel) ?? []) {
      try {
        Promise.resolve(handler(JSON.parse(json))).catch((error: unknown) => report(channel, error));
      } catch (error) {
        report(channel, error);
      }
    }
  }

  clear(): void {
    this.byChannel.clear();
  }
}

function report(channel: string, error: unknown): void {
  logger.error(
    `Handler for "${channel}" failed: ${(error as Error)?.message ?? String(error)}`,
    (error as Error)?.stack,
  );
}

export function serialize(channel: string, message: unknown): string {
  const json = JSON.stringify(message);
  if (json === undefined) throw new TypeError(`Event on "${channel}" is not JSON-serializable`);
  return json;
}
