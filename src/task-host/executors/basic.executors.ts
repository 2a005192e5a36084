import { setting, sleep, TaskExecutor, TaskFailure, TaskRunContext, textSetting } from './task-executor';

const MAX_SLEEP_MS = 3_600_000;

/** Does nothing; its result is its inputs (so dependency results can be seen flowing through). */
export class NoopExecutor implements TaskExecutor {
  readonly id = 'noop';
  readonly description = 'Completes at once; the result is the task inputs';

  async execute(context: TaskRunContext): Promise<unknown> {
    return context.inputs;
  }
}

/** Waits `seconds` (or `ms`), reporting progress, then completes; cancellable. For tests and demos. */
export class SleepExecutor implements TaskExecutor {
  readonly id = 'sleep';
  readonly description = 'Waits `seconds` or `ms` (inputs or params), then completes with {slept_ms}';

  async execute(context: TaskRunContext): Promise<unknown> {
    const ms = sleepMs(setting(context, 'ms'), setting(context, 'seconds'));
    const steps = Math.max(1, Math.min(10, Math.floor(ms / 100)));
    for (let step = 1; step <= steps; step++) {
      await sleep(ms / steps, context.signal);
      if (step < steps) context.reportProgress(step / steps);
    }
    if (setting(context, 'fail') === true) throw new TaskFailure(textSetting(context, 'message') ?? 'Asked to fail');
    return { slept_ms: ms };
  }
}

/** Merges the results of the task's dependencies (or, without any, of its children), keyed by task id. */
export class AggregateExecutor implements TaskExecutor {
  readonly id = 'aggregate';
  readonly description =
    'Merges dependency results (children without dependencies) into {results: {id: result}, names: {id: name}}';

  async execute(context: TaskRunContext): Promise<unknown> {
    const sources = context.dependencies.length > 0 ? context.dependencies : context.children;
    return {
      results: Object.fromEntries(sources.map((source) => [source.id, source.result])),
      names: Object.fromEntries(sources.map((source) => [source.id, source.name])),
      count: sources.length,
    };
  }
}

function sleepMs(ms: unknown, seconds: unknown): number {
  const value = ms !== undefined ? Number(ms) : seconds !== undefined ? Number(seconds) * 1000 : 1000;
  if (!Number.isFinite(value) || value < 0 || value > MAX_SLEEP_MS)
    throw new TaskFailure(`sleep needs ms between 0 and ${MAX_SLEEP_MS} (or seconds), got ${String(ms ?? seconds)}`);
  return value;
}
