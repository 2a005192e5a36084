import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { EventBus } from '../../platform/events/event-bus';
import { PushSubscriptionEntity } from './entities/push-subscription.entity';
import { PushConfigRepository } from './push-config.repository';

/** Where replicas hear that an owner's webhooks for an agent changed. */
const CHANGED_CHANNEL = 'a2a:push-subscriptions:changed';
/** How long a replica trusts what it read, should a change message be lost. */
const TTL_MS = 30_000;

interface Change {
  agentId: string;
  owner: string;
}

/**
 * Agent-wide webhooks (configure_push_notifications), read for every task event: each replica
 * keeps what it read per (agent, owner) - nearly always "none" - and drops it when any replica
 * changes them (EventBus) or after TTL_MS, so the hot path of a task update costs no query.
 */
@Injectable()
export class PushSubscriptions implements OnModuleInit {
  private readonly logger = new Logger('PushSubscriptions');
  private readonly cache = new LRUCache<string, PushSubscriptionEntity[], Change>({
    max: 10_000,
    ttl: TTL_MS,
    fetchMethod: (_key, _stale, { context }) => this.repository.subscriptionsOf(context.agentId, context.owner),
  });

  constructor(
    private readonly repository: PushConfigRepository,
    private readonly bus: EventBus,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.bus.subscribe(CHANGED_CHANNEL, (message) => {
      const { agentId, owner } = message as Change;
      this.cache.delete(key(agentId, owner));
    });
  }

  async of(agentId: string, owner: string): Promise<PushSubscriptionEntity[]> {
    return (await this.cache.fetch(key(agentId, owner), { context: { agentId, owner } })) ?? [];
  }

  /** What this replica has read of the owner's webhooks for the agent, without asking; undefined if nothing. */
  cached(agentId: string, owner: string): PushSubscriptionEntity[] | undefined {
    return this.cache.get(key(agentId, owner));
  }

  async subscribe(subscription: PushSubscriptionEntity): Promise<PushSubscriptionEntity> {
    const saved = await this.repository.subscribe(subscription);
    await this.changed(subscription.agentId, subscription.owner);
    return saved;
  }

  /** Removes one of the owner's webhooks; false when there is none with that id. */
  async unsubscribe(owner: string, id: string): Promise<boolean> {
    const removed = await this.repository.unsubscribe(owner, id);
    if (removed) await this.changed(removed.agentId, owner);
    return removed !== undefined;
  }

  private async changed(agentId: string, owner: string): Promise<void> {
    this.cache.delete(key(agentId, owner));
    await this.bus
      .publish(CHANGED_CHANNEL, { agentId, owner } satisfies Change)
      .catch((error: Error) => this.logger.warn(`Other replicas see the change within 30 s: ${error.message}`));
  }
}

function key(agentId: string, owner: string): string {
  return `${agentId}\n${owner}`;
}
