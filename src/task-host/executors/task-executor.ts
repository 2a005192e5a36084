import type { TaskEntity, TaskStatus } from '../entities/task.entity';

/** A finished dependency or child, as an executor sees it. */
export interface UpstreamResult {
  id: string;
  name: string;
  status: TaskStatus;
  result: unknown;
  error: string | null;
}

/** What an executor gets for one attempt of one task. */
export interface TaskRunContext {
  task: Readonly<TaskEntity>;
  /** The task's inputs with its completed dependencies' results merged in (see TreeRun). */
  inputs: Record<string, unknown>;
  dependencies: UpstreamResult[];
  children: UpstreamResult[];
  /** Aborted when the task is cancelled or its replica shuts down: stop promptly. */
  signal: AbortSignal;
  /** 0..1; reported to watchers and stored, throttled. */
  reportProgress(progress: number): void;
}

/**
 * Runs one kind of task, chosen by the task's `schemas.method`. The returned value (JSON) is the
 * task's result; a thrown error fails the task with its message.
 */
export interface TaskExecutor {
  readonly id: string;
  readonly description: string;
  execute(context: TaskRunContext): Promise<unknown>;
}

/** An executor's failure that is the task's fault, with a message meant for the task's `error`. */
export class TaskFailure extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TaskFailure';
  }
}

/** Reads an input given in `inputs` or, failing that, `params`. */
export function setting(context: TaskRunContext, name: string): unknown {
  return context.inputs[name] ?? context.task.params?.[name];
}

/** A string input (or param); TaskFailure if it is there but not a string. */
export function textSetting(context: TaskRunContext, name: string): string | undefined {
  const value = setting(context, name);
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw new TaskFailure(`${name} must be a string`);
  return value;
}

/** The error an aborted wait rejects with. */
export function abortError(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new Error('The task was stopped');
}

/** Resolves after `ms`, or rejects when the signal aborts first. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(abortError(signal));
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortError(signal));
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
