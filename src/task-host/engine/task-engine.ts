import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { AppConfig } from '../../platform/config/app-config';
import { EventBus, Subscription } from '../../platform/events/event-bus';
import type { TaskExecutionEntity } from '../entities/task-execution.entity';
import { methodOf, TaskExecutorRegistry } from '../executors/task-executor.registry';
import { TaskPushNotifier } from '../push/task-push.notifier';
import { ExecutionRepository } from './execution.repository';
import { TaskEvent, TaskEvents } from './task-events';
import { RunOutcome, TreeRun } from './tree-run';

const CONTROL_CHANNEL = 'taskhost:control';

type ControlMessage = { type: 'cancel'; root_id: string; task_ids: string[] } | { type: 'wake' };

/**
 * Runs task-tree executions. An execution is leased to one replica at a time: the replica that
 * starts it holds the lease and renews it by heartbeat; every replica polls for executions whose
 * lease expired (their replica died) or was released (it shut down) and takes them over with
 * FOR UPDATE SKIP LOCKED. Cancels reach the replica running a tree over the EventBus.
 */
@Injectable()
export class TaskEngine implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('TaskEngine');
  /** This replica, as lease holder. */
  readonly owner = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  private readonly runs = new Map<string, { run: TreeRun; heartbeat: NodeJS.Timeout }>();
  private poller?: NodeJS.Timeout;
  private control?: Subscription;
  private polling = false;
  private closing = false;

  constructor(
    private readonly config: AppConfig,
    private readonly repo: ExecutionRepository,
    private readonly executors: TaskExecutorRegistry,
    private readonly events: TaskEvents,
    private readonly push: TaskPushNotifier,
    private readonly bus: EventBus,
  ) {}

  get leaseMs(): number {
    return this.config.tasks.leaseMs;
  }

  async onApplicationBootstrap(): Promise<void> {
    this.control = await this.bus.subscribe(CONTROL_CHANNEL, (message) => this.onControl(message as ControlMessage));
    this.poller = setInterval(() => void this.poll(), this.config.tasks.pollIntervalMs);
    this.poller.unref();
    void this.poll();
  }

  /** Starts an execution this replica leased in the execute transaction. */
  adopt(execution: TaskExecutionEntity): void {
    if (this.closing || this.runs.has(execution.id)) return;
    void this.begin(execution).catch((error: Error) => {
      this.logger.error(`Execution ${execution.id} could not start: ${error.message}`);
    });
  }

  /** Tells the replica running the tree (maybe this one) that these tasks were cancelled. */
  async announceCancel(rootId: string, taskIds: string[]): Promise<void> {
    const message: ControlMessage = { type: 'cancel', root_id: rootId, task_ids: taskIds };
    this.onControl(message);
    await this.bus.publish(CONTROL_CHANNEL, message).catch((error: Error) => {
      this.logger.warn(`Could not announce a cancel: ${error.message}`);
    });
  }

  /** Sends an event to watchers and to the execution's webhook (progress only to watchers). */
  emit(executionId: string, pushConfig: TaskExecutionEntity['pushConfig'], event: TaskEvent): void {
    void this.events.publish(event);
    if (event.event !== 'task_progress_update') void this.push.notify(executionId, pushConfig, event);
  }

  /** Shutdown: stop taking work, stop running trees, hand their leases back, let webhooks finish. */
  async beforeApplicationShutdown(): Promise<void> {
    this.closing = true;
    clearInterval(this.poller);
    const active = [...this.runs.values()];
    for (const { run } of active) run.stop('shutdown');
    await Promise.all(active.map(({ run }) => run.outcome));
    if (active.length > 0) await this.bus.publish(CONTROL_CHANNEL, { type: 'wake' }).catch(() => undefined);
    await this.control?.unsubscribe().catch(() => undefined);
    await withDeadline(this.push.drain(), this.config.shutdownTimeoutMs);
  }

  private onControl(message: ControlMessage): void {
    if (message.type === 'wake') {
      void this.poll();
      return;
    }
    for (const { run } of this.runs.values()) if (run.rootId === message.root_id) run.cancel(message.task_ids);
  }

  private async poll(): Promise<void> {
    if (this.polling || this.closing) return;
    this.polling = true;
    try {
      const capacity = this.config.tasks.maxTreesPerReplica - this.runs.size;
      for (const execution of await this.repo.claim(this.owner, this.leaseMs, capacity)) {
        this.logger.log(`Took over execution ${execution.id} of tree ${execution.rootId}`);
        await this.begin(execution);
      }
    } catch (error) {
      this.logger.warn(`Polling for task executions failed: ${(error as Error).message}`);
    } finally {
      this.polling = false;
    }
  }

  private async begin(execution: TaskExecutionEntity): Promise<void> {
    if (this.closing || this.runs.has(execution.id)) return;
    await this.repo.requeueInProgress(execution.rootId);
    const tasks = await this.repo.tree(execution.rootId);
    const run = new TreeRun(execution, tasks, {
      repo: this.repo,
      executorFor: (task) => this.executors.get(methodOf(task.schemas)),
      emit: (event) => this.emit(execution.id, execution.pushConfig, event),
      owner: this.owner,
      concurrency: this.config.tasks.concurrency,
    });
    const heartbeat = setInterval(() => void this.renew(run), Math.max(50, Math.floor(this.leaseMs / 3)));
    heartbeat.unref();
    this.runs.set(execution.id, { run, heartbeat });
    void run
      .start()
      .then((outcome) => this.end(run, outcome))
      .catch((error: Error) => this.logger.error(`Execution ${execution.id} failed: ${error.message}`))
      .finally(() => {
        clearInterval(heartbeat);
        this.runs.delete(execution.id);
      });
  }

  private async renew(run: TreeRun): Promise<void> {
    try {
      if (!(await this.repo.renew(run.execution.id, this.owner, this.leaseMs))) {
        this.logger.warn(`Lost the lease on execution ${run.execution.id}; another replica has it`);
        run.stop('lease-lost');
      }
    } catch (error) {
      this.logger.warn(`Could not renew the lease on execution ${run.execution.id}: ${(error as Error).message}`);
    }
  }

  private async end(run: TreeRun, outcome: RunOutcome): Promise<void> {
    const { execution } = run;
    if ('stopped' in outcome) {
      if (outcome.stopped === 'shutdown') await this.repo.release(execution.id, this.owner).catch(() => undefined);
      return;
    }
    if (!(await this.repo.finish(execution.id, this.owner, outcome.finished))) return;
    const root = await this.repo.task(execution.rootId);
    this.emit(execution.id, execution.pushConfig, {
      event: 'final',
      data: {
        protocol: 'a2a',
        task_id: execution.rootId,
        root_task_id: execution.rootId,
        execution_id: execution.id,
        status: root?.status ?? (outcome.finished === 'completed' ? 'completed' : 'failed'),
        progress: root?.progress ?? 1,
        ...(root?.status === 'completed' ? { result: root.result ?? null } : { error: root?.error ?? null }),
        final: true,
        timestamp: new Date().toISOString(),
      },
    });
  }
}

async function withDeadline(work: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([work, new Promise((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}
