import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { randomUUID } from 'node:crypto';
import { EventBus } from '../../platform/events/event-bus';
import { PushConfigEntity } from './entities/push-config.entity';
import { PushConfigRepository } from './push-config.repository';

/** Where replicas hear that a task's webhooks changed. */
const CHANGED_CHANNEL = 'a2a:push-configs:changed';
/** How long a replica trusts what it read, should a change message be lost. */
const TTL_MS = 30_000;

interface TaskRef {
  agentId: string;
  owner: string;
  taskId: string;
}

interface Change extends TaskRef {
  /** The replica that made the change (it has read the change already). */
  origin: string;
}

/**
 * The webhooks clients registered for each task (tasks/pushNotificationConfig/set), read for every
 * event of the task. Each replica keeps what it read per task - nearly always "none" - and drops
 * it when any replica changes that task's webhooks (EventBus) or after TTL_MS. A task the SDK has
 * just made up cannot have any but those registered with its first message, so it costs no query
 * at all (`noneYet`). Changes go through here, so the replica making one sees it at once.
 */
@Injectable()
export class TaskWebhooks implements OnModuleInit {
  private readonly logger = new Logger('TaskWebhooks');
  private readonly replica = randomUUID();
  private readonly cache = new LRUCache<string, PushConfigEntity[], TaskRef>({
    max: 10_000,
    ttl: TTL_MS,
    fetchMethod: (_key, _stale, { context }) => this.repository.forTask(context.agentId, context.owner, context.taskId),
  });

  constructor(
    private readonly repository: PushConfigRepository,
    private readonly bus: EventBus,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.bus.subscribe(CHANGED_CHANNEL, (message) => {
      const change = message as Change;
      if (change.origin !== this.replica) this.cache.delete(key(change));
    });
  }

  async of(task: TaskRef): Promise<PushConfigEntity[]> {
    return (await this.cache.fetch(key(task), { context: task })) ?? [];
  }

  /** What this replica has read of the task's webhooks, without asking the database; undefined if nothing. */
  cached(task: TaskRef): PushConfigEntity[] | undefined {
    return this.cache.get(key(task));
  }

  /** The task is new: it has no webhooks unless some were just registered (then they are known here). */
  noneYet(task: TaskRef): void {
    if (!this.cache.has(key(task))) this.cache.set(key(task), []);
  }

  async save(config: PushConfigEntity): Promise<void> {
    await this.repository.upsert(config);
    await this.changed(config);
  }

  /** Removes the task's webhooks (one, given its id); how many there were. */
  async remove(task: TaskRef, configId?: string): Promise<number> {
    const removed = await this.repository.remove(task.agentId, task.owner, task.taskId, configId);
    await this.changed(task);
    return removed;
  }

  /** Reads the task's webhooks afresh here, and tells the other replicas to drop theirs. */
  private async changed({ agentId, owner, taskId }: TaskRef): Promise<void> {
    const ref = { agentId, owner, taskId };
    this.cache.set(key(ref), await this.repository.forTask(agentId, owner, taskId));
    await this.bus
      .publish(CHANGED_CHANNEL, { ...ref, origin: this.replica } satisfies Change)
      .catch((error: Error) => this.logger.warn(`Other replicas see the change within 30 s: ${error.message}`));
  }
}

function key({ agentId, owner, taskId }: TaskRef): string {
  return `${agentId}\n${owner}\n${taskId}`;
}
