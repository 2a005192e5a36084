import { Inject, Injectable } from '@nestjs/common';
import { DataSource, Repository } from 'typeorm';
import { WriteBehindQueue } from '../../platform/database/write-behind-queue';
import { deleteBatch, Retention } from '../../platform/database/retention';
import { WriteBehindQueues } from '../../platform/database/write-behind-queues';
import { PushConfigEntity } from './entities/push-config.entity';
import { PushDeliveryEntity } from './entities/push-delivery.entity';
import { PushSubscriptionEntity } from './entities/push-subscription.entity';

/**
 * a2a_push_configs (per task), a2a_push_subscriptions (per agent and owner) and
 * a2a_push_deliveries (the delivery log, written behind the deliveries, in batches).
 */
@Injectable()
export class PushConfigRepository {
  private readonly configs: Repository<PushConfigEntity>;
  private readonly deliveries: Repository<PushDeliveryEntity>;
  private readonly subscriptions: Repository<PushSubscriptionEntity>;
  private readonly deliveryLog: WriteBehindQueue<PushDeliveryEntity>;

  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    queues: WriteBehindQueues,
    retention: Retention,
  ) {
    retention.register({
      kind: 'a2a_push_deliveries',
      setting: 'pushDeliveryDays',
      prune: (cutoff, batch) => deleteBatch(dataSource, 'a2a_push_deliveries', 'created_at < $1', cutoff, batch),
    });
    this.configs = dataSource.getRepository(PushConfigEntity);
    this.deliveries = dataSource.getRepository(PushDeliveryEntity);
    this.subscriptions = dataSource.getRepository(PushSubscriptionEntity);
    this.deliveryLog = queues.create<PushDeliveryEntity>({
      name: 'push_deliveries',
      write: async (rows) => void (await this.deliveries.insert(rows)),
    });
  }

  async upsert(config: PushConfigEntity): Promise<void> {
    await this.configs.upsert(config, ['agentId', 'owner', 'taskId', 'configId']);
  }

  forTask(agentId: string, owner: string, taskId: string): Promise<PushConfigEntity[]> {
    return this.configs.find({ where: { agentId, owner, taskId }, order: { createdAt: 'ASC' } });
  }

  /** Removes the task's configs (one, given its id); how many there were. */
  async remove(agentId: string, owner: string, taskId: string, configId?: string): Promise<number> {
    const result = await this.configs.delete({ agentId, owner, taskId, ...(configId ? { configId } : {}) });
    return result.affected ?? 0;
  }

  /**
   * Creates the owner's webhook for the agent, or changes the events of the one at that URL
   * (configuring the same webhook twice keeps one subscription and its id).
   */
  async subscribe(subscription: PushSubscriptionEntity): Promise<PushSubscriptionEntity> {
    const rows: PushSubscriptionEntity[] = await this.dataSource.query(
      `INSERT INTO a2a_push_subscriptions (id, agent_id, owner, url, events, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $6)
       ON CONFLICT (agent_id, owner, url) DO UPDATE SET events = EXCLUDED.events, updated_at = EXCLUDED.updated_at
       RETURNING id, created_at AS "createdAt", updated_at AS "updatedAt"`,
      [
        subscription.id,
        subscription.agentId,
        subscription.owner,
        subscription.url,
        subscription.events,
        subscription.createdAt,
      ],
    );
    return { ...subscription, ...rows[0] };
  }

  subscriptionsOf(agentId: string, owner: string): Promise<PushSubscriptionEntity[]> {
    return this.subscriptions.find({ where: { agentId, owner }, order: { createdAt: 'ASC' } });
  }

  /** Removes one of the owner's subscriptions; what was removed, or undefined when there is none with that id. */
  async unsubscribe(owner: string, id: string): Promise<PushSubscriptionEntity | undefined> {
    // A SELECT around the DELETE, so the driver hands back plain rows.
    const rows: { agent_id: string }[] = await this.dataSource.query(
      `WITH gone AS (DELETE FROM a2a_push_subscriptions WHERE owner = $1 AND id = $2 RETURNING agent_id)
       SELECT agent_id FROM gone`,
      [owner, id],
    );
    return rows[0] ? Object.assign(new PushSubscriptionEntity(), { id, owner, agentId: rows[0].agent_id }) : undefined;
  }

  /** Queues a delivery's log row; it reaches the table a few milliseconds later. */
  logDelivery(delivery: PushDeliveryEntity): Promise<void> {
    return this.deliveryLog.add(delivery);
  }

  /** Resolves once every delivery logged so far is in the table. */
  deliveriesRecorded(): Promise<void> {
    return this.deliveryLog.flushed();
  }

  /** Everything stored for an agent that is being removed. */
  async removeAgent(agentId: string): Promise<void> {
    await this.deliveryLog.flushed();
    await this.configs.delete({ agentId });
    await this.subscriptions.delete({ agentId });
    await this.deliveries.delete({ agentId });
  }
}
