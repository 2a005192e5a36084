import { Injectable } from '@nestjs/common';
import { TaskEvent, TaskEvents } from './task-events';

/**
 * Turns a tree's EventBus channel into an async stream for one watcher (SSE, WebSocket, gRPC).
 * The subscription is active when `open` resolves, so nothing published afterwards is missed;
 * the stream ends after the execution's `final` event, or when the watcher stops reading.
 */
@Injectable()
export class TaskEventStreams {
  constructor(private readonly events: TaskEvents) {}

  /**
   * Events of the tree - only those of `executionId` if given - ending with the (execution's)
   * final event unless `untilClosed`.
   */
  async open(rootId: string, executionId?: string, untilClosed = false): Promise<AsyncIterable<TaskEvent>> {
    const queue: TaskEvent[] = [];
    let wake: (() => void) | undefined;
    const subscription = await this.events.watch(rootId, (event) => {
      if (executionId && event.data.execution_id !== executionId && event.data.execution_id !== '') return;
      queue.push(event);
      wake?.();
    });
    async function* stream(): AsyncGenerator<TaskEvent> {
      try {
        for (;;) {
          while (queue.length > 0) {
            const event = queue.shift()!;
            yield event;
            if (!untilClosed && event.event === 'final') return;
          }
          await new Promise<void>((resolve) => (wake = resolve));
          wake = undefined;
        }
      } finally {
        await subscription.unsubscribe().catch(() => undefined);
      }
    }
    return stream();
  }
}
