import { Logger } from '@nestjs/common';
import type { ExecutionStatus, TaskExecutionEntity } from '../entities/task-execution.entity';
import { isFinished, TaskEntity, TaskStatus } from '../entities/task.entity';
import type { TaskExecutor, UpstreamResult } from '../executors/task-executor';
import { ExecutionRepository } from './execution.repository';
import { TaskEvent, taskEvent } from './task-events';

/** Why a run stops before its tree is finished: its tasks stay in progress for the next holder. */
export type StopReason = 'shutdown' | 'lease-lost';

export interface TreeRunDeps {
  repo: ExecutionRepository;
  executorFor(task: TaskEntity): TaskExecutor | undefined;
  /** Publishes to watchers and, unless progress-only, to the execution's webhook. */
  emit(event: TaskEvent): void;
  owner: string;
  concurrency: number;
}

/** How a run ended: the execution's final status, or stopped (the lease is given up or lost). */
export type RunOutcome = { finished: Exclude<ExecutionStatus, 'running'> } | { stopped: StopReason };

const PROGRESS_INTERVAL_MS = 250;
const CANCELLED = Symbol('cancelled');

interface Node {
  task: TaskEntity;
  /** Unfinished dependencies and children. */
  unmet: number;
  dependents: string[];
  /** Ids of the dependencies that must complete (not only finish). */
  required: Set<string>;
  children: string[];
  state: 'blocked' | 'eligible' | 'running' | 'done';
  /** Counted in its sibling group's active tasks (eligible or running). */
  active: boolean;
  controller?: AbortController;
}

/** Siblings under one parent: lower priority numbers run first. */
interface Group {
  active: number[];
  waiting: string[][];
}

/**
 * Drives one execution of a task tree on this replica, in memory, with every state change
 * written to Postgres first. A task runs when its dependencies and its children have finished
 * (a parent runs after its children) and no sibling of a more urgent priority is eligible or
 * running; a failed or cancelled required dependency fails the task without running it; an
 * optional one never blocks. At most `concurrency` tasks run at once. Writes are fenced (see
 * ExecutionRepository), so a run that lost its lease cannot complete anything.
 */
export class TreeRun {
  private readonly logger = new Logger('TaskEngine');
  private readonly nodes = new Map<string, Node>();
  private readonly groups = new Map<string, Group>();
  /** Eligible tasks by priority, each a FIFO queue. */
  private readonly ready = [new Queue(), new Queue(), new Queue(), new Queue()];
  private running = 0;
  private writes = 0;
  private stopped?: StopReason;
  private settle!: (outcome: RunOutcome) => void;
  readonly outcome = new Promise<RunOutcome>((resolve) => (this.settle = resolve));
  private ended = false;

  constructor(
    readonly execution: TaskExecutionEntity,
    tasks: TaskEntity[],
    private readonly deps: TreeRunDeps,
  ) {
    for (const task of tasks) {
      this.nodes.set(task.id, {
        task,
        unmet: 0,
        dependents: [],
        required: new Set(task.dependencies.filter((d) => d.required).map((d) => d.id)),
        children: [],
        state: isFinished(task.status) ? 'done' : 'blocked',
        active: false,
      });
    }
    for (const node of this.nodes.values()) {
      if (node.task.parentId) this.nodes.get(node.task.parentId)?.children.push(node.task.id);
      for (const dependency of node.task.dependencies) this.nodes.get(dependency.id)?.dependents.push(node.task.id);
    }
  }

  get rootId(): string {
    return this.execution.rootId;
  }

  /** Starts the run; `outcome` resolves when the tree is finished or the run is stopped. */
  start(): Promise<RunOutcome> {
    for (const node of this.nodes.values()) {
      if (node.state === 'done') continue;
      const failedDependency = this.failedRequiredDependency(node);
      if (failedDependency) {
        this.failWithoutRunning(node, failedDependency);
        continue;
      }
      node.unmet =
        node.task.dependencies.filter((d) => this.nodes.get(d.id)?.state !== 'done').length +
        node.children.filter((id) => this.nodes.get(id)?.state !== 'done').length;
    }
    // Most urgent first, so a sibling group never starts ahead of a more urgent one.
    const startable = [...this.nodes.values()].filter((node) => node.state === 'blocked' && node.unmet === 0);
    for (const node of startable.sort((a, b) => a.task.priority - b.task.priority)) this.makeEligible(node);
    this.pump();
    return this.outcome;
  }

  /** Tasks another caller cancelled (already cancelled in the database): stop them here. */
  cancel(taskIds: string[]): void {
    for (const id of taskIds) {
      const node = this.nodes.get(id);
      if (!node || node.state === 'done') continue;
      if (node.state === 'running') node.controller?.abort(CANCELLED);
      else this.finish(node, { status: 'cancelled', result: null, error: node.task.error ?? 'Cancelled' });
    }
    this.pump();
  }

  /** Aborts running work and leaves unfinished tasks as they are stored, for the next holder. */
  stop(reason: StopReason): void {
    if (this.stopped || this.ended) return;
    this.stopped = reason;
    for (const node of this.nodes.values()) if (node.state === 'running') node.controller?.abort(reason);
    this.maybeEnd();
  }

  private failedRequiredDependency(node: Node): TaskEntity | undefined {
    for (const dependency of node.task.dependencies) {
      const upstream = this.nodes.get(dependency.id);
      if (dependency.required && upstream?.state === 'done' && upstream.task.status !== 'completed')
        return upstream.task;
    }
    return undefined;
  }

  private groupOf(node: Node): Group {
    const key = node.task.parentId ?? '';
    let group = this.groups.get(key);
    if (!group) this.groups.set(key, (group = { active: [0, 0, 0, 0], waiting: [[], [], [], []] }));
    return group;
  }

  private makeEligible(node: Node): void {
    node.state = 'eligible';
    node.active = true;
    const group = this.groupOf(node);
    const priority = node.task.priority;
    group.active[priority]++;
    if (group.active.slice(0, priority).some((count) => count > 0)) group.waiting[priority].push(node.task.id);
    else this.ready[priority].push(node.task.id);
  }

  private pump(): void {
    while (!this.stopped && this.running < this.deps.concurrency) {
      const id = this.ready.find((bucket) => bucket.size > 0)?.take();
      if (id === undefined) break;
      const node = this.nodes.get(id)!;
      if (node.state !== 'eligible') continue;
      this.launch(node);
    }
    this.maybeEnd();
  }

  private launch(node: Node): void {
    node.state = 'running';
    node.controller = new AbortController();
    this.running++;
    void this.attempt(node)
      .catch((error: Error) => {
        // A database failure mid-attempt: leave the task to whoever holds the lease next.
        this.logger.error(`Task ${node.task.id}: ${error.message}`);
        this.stop('lease-lost');
      })
      .finally(() => {
        this.running--;
        this.pump();
      });
  }

  private async attempt(node: Node): Promise<void> {
    const { repo } = this.deps;
    const task = node.task;
    const started = await repo.start(task.id, this.execution.id, this.deps.owner);
    if (!started) return this.adoptStoredState(node);
    Object.assign(task, { status: 'in_progress', attempt: started.attempt, startedAt: started.startedAt, progress: 0 });
    task.result = null;
    task.error = null;
    this.deps.emit(taskEvent(task, this.execution.id));

    const signal = node.controller!.signal;
    let outcome: { status: TaskStatus; result: unknown; error: string | null };
    try {
      const executor = this.deps.executorFor(task);
      if (!executor) throw new Error(`Executor not found: ${String(task.schemas?.method)}`);
      const result = await executor.execute({
        task,
        inputs: this.inputsFor(node),
        dependencies: this.upstream(task.dependencies.map((d) => d.id)),
        children: this.upstream(node.children),
        signal,
        reportProgress: this.progressReporter(task, started.attempt, signal),
      });
      outcome = { status: 'completed', result: jsonSafe(result), error: null };
    } catch (error) {
      if (signal.aborted && signal.reason !== CANCELLED) return; // stopping: the next holder runs it again
      outcome = signal.aborted
        ? { status: 'cancelled', result: null, error: 'Cancelled' }
        : { status: 'failed', result: null, error: messageOf(error) };
    }
    if (this.stopped) return;
    const written = await repo.complete(task.id, started.attempt, outcome);
    if (!written) return this.adoptStoredState(node);
    task.progress = written.progress;
    task.completedAt = written.completedAt;
    this.finish(node, outcome, true);
  }

  /** A write was refused: the task was cancelled meanwhile, or the lease is gone. */
  private async adoptStoredState(node: Node): Promise<void> {
    const stored = await this.deps.repo.statusOf(node.task.id);
    if (stored && isFinished(stored.status)) {
      this.finish(node, { status: stored.status, result: null, error: stored.error });
    } else {
      this.stop('lease-lost');
    }
  }

  private failWithoutRunning(node: Node, dependency: TaskEntity): void {
    const error = `Required dependency "${dependency.name}" (${dependency.id}) ${dependency.status === 'cancelled' ? 'was cancelled' : 'failed'}`;
    node.state = 'running'; // held until the write lands, so the run does not end under it
    this.writes++;
    void this.deps.repo
      .failPending(node.task.id, this.execution.id, this.deps.owner, error)
      .then(async (written) => {
        node.state = 'blocked';
        if (written) this.finish(node, { status: 'failed', result: null, error }, true);
        else await this.adoptStoredState(node);
      })
      .catch((failure: Error) => {
        this.logger.error(`Task ${node.task.id}: ${failure.message}`);
        this.stop('lease-lost');
      })
      .finally(() => {
        this.writes--;
        this.pump();
      });
  }

  private finish(
    node: Node,
    outcome: { status: TaskStatus; result: unknown; error: string | null },
    announce = false,
  ): void {
    if (node.state === 'done') return;
    node.state = 'done';
    Object.assign(node.task, outcome);
    if (announce) this.deps.emit(taskEvent(node.task, this.execution.id));
    if (node.active) {
      node.active = false;
      this.release(this.groupOf(node), node.task.priority);
    }
    for (const id of node.dependents) {
      const dependent = this.nodes.get(id);
      if (!dependent || dependent.state !== 'blocked') continue;
      if (dependent.required.has(node.task.id) && outcome.status !== 'completed')
        this.failWithoutRunning(dependent, node.task);
      else this.satisfied(dependent);
    }
    const parent = node.task.parentId ? this.nodes.get(node.task.parentId) : undefined;
    if (parent && parent.state === 'blocked') this.satisfied(parent);
  }

  private satisfied(node: Node): void {
    node.unmet--;
    if (node.unmet <= 0) this.makeEligible(node);
  }

  /** A sibling left its group: more urgent groups being empty lets the next one run. */
  private release(group: Group, priority: number): void {
    group.active[priority]--;
    for (let p = 1; p < 4; p++) {
      if (group.waiting[p].length === 0) continue;
      if (group.active.slice(0, p).some((count) => count > 0)) break;
      for (const id of group.waiting[p]) this.ready[p].push(id);
      group.waiting[p] = [];
    }
  }

  /** Own inputs, with completed dependencies' results merged in (objects) or under their id (others). */
  private inputsFor(node: Node): Record<string, unknown> {
    const inputs: Record<string, unknown> = { ...node.task.inputs };
    for (const dependency of node.task.dependencies) {
      const upstream = this.nodes.get(dependency.id)?.task;
      if (!upstream || upstream.status !== 'completed' || upstream.result === null || upstream.result === undefined)
        continue;
      const result = upstream.result;
      if (typeof result === 'object' && !Array.isArray(result)) Object.assign(inputs, result);
      else inputs[upstream.id] = result;
    }
    return inputs;
  }

  private upstream(ids: string[]): UpstreamResult[] {
    return ids.flatMap((id) => {
      const task = this.nodes.get(id)?.task;
      return task ? [{ id, name: task.name, status: task.status, result: task.result ?? null, error: task.error }] : [];
    });
  }

  private progressReporter(task: TaskEntity, attempt: number, signal: AbortSignal): (progress: number) => void {
    let last = 0;
    return (progress) => {
      const now = Date.now();
      if (signal.aborted || !Number.isFinite(progress) || now - last < PROGRESS_INTERVAL_MS) return;
      last = now;
      task.progress = Math.min(1, Math.max(0, progress));
      void this.deps.repo.progress(task.id, attempt, task.progress).catch(() => undefined);
      this.deps.emit(taskEvent(task, this.execution.id, true));
    };
  }

  private maybeEnd(): void {
    if (this.ended || this.running > 0 || this.writes > 0) return;
    if (this.stopped) {
      this.ended = true;
      this.settle({ stopped: this.stopped });
      return;
    }
    if (this.ready.some((bucket) => bucket.size > 0)) return;
    this.ended = true;
    const root = this.nodes.get(this.execution.rootId)?.task;
    const status = root?.status;
    const finished = status === 'completed' ? 'completed' : status === 'cancelled' ? 'cancelled' : 'failed';
    if (root && !isFinished(root.status))
      this.logger.error(`Execution ${this.execution.id} ended with its root ${root.status}`);
    this.settle({ finished });
  }
}

function messageOf(error: unknown): string {
  if (error instanceof Error && error.message) return error.message;
  return typeof error === 'string' && error ? error : 'The task failed';
}

/** The result as stored: JSON values only (undefined becomes null). */
function jsonSafe(result: unknown): unknown {
  if (result === undefined) return null;
  return JSON.parse(JSON.stringify(result)) as unknown;
}

/** A FIFO of task ids with O(1) take (Array#shift is O(n) on large arrays). */
class Queue {
  private items: string[] = [];
  private head = 0;

  get size(): number {
    return this.items.length - this.head;
  }

  push(id: string): void {
    this.items.push(id);
  }

  take(): string | undefined {
    if (this.head >= this.items.length) return undefined;
    const id = this.items[this.head++];
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return id;
  }
}
