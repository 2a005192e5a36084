import type { ListTasksRequest, ListTasksResponse, Task } from '@a2a-js/sdk';
import { InMemoryTaskStore, ServerCallContext, TaskStore } from '@a2a-js/sdk/server';

/** Saves per generation: seconds of tasks at the echo servers' rates, a task lives milliseconds. */
const GENERATION_SAVES = 10_000;

/**
 * The SDK's InMemoryTaskStore in two generations: after GENERATION_SAVES saves, a new store takes
 * the writes and the oldest is dropped; reads look in both. The SDK's store alone never forgets a
 * task - ~7 KB each here: an echo server holding 200,000 tasks had grown to 1.4 GB - so over a
 * long run the echo servers (the baselines) would slow down with their heaps and a `--rounds 3`
 * run could reach V8's 4 GB heap limit. The answers are the same: every task still lives in an
 * InMemoryTaskStore while it runs, and nothing asks for it later.
 */
export class RecentTaskStore implements TaskStore {
  private current = new InMemoryTaskStore();
  private previous = new InMemoryTaskStore();
  private saves = 0;

  async save(task: Task, context: ServerCallContext): Promise<void> {
    if (++this.saves > GENERATION_SAVES) {
      this.previous = this.current;
      this.current = new InMemoryTaskStore();
      this.saves = 1;
    }
    await this.current.save(task, context);
  }

  async load(taskId: string, context: ServerCallContext): Promise<Task | undefined> {
    return (await this.current.load(taskId, context)) ?? this.previous.load(taskId, context);
  }

  list(params: ListTasksRequest, context: ServerCallContext): Promise<ListTasksResponse> {
    return this.current.list(params, context);
  }
}
