import { Inject, Injectable } from '@nestjs/common';
import { DataSource, Repository } from 'typeorm';
import { PushConfigEntity } from './entities/push-config.entity';
import { PushDeliveryEntity } from './entities/push-delivery.entity';

/** a2a_push_configs and a2a_push_deliveries. */
@Injectable()
export class PushConfigRepository {
  private readonly configs: Repository<PushConfigEntity>;
  private readonly deliveries: Repository<PushDeliveryEntity>;

  constructor(@Inject(DataSource) dataSource: DataSource) {
    this.configs = dataSource.getRepository(PushConfigEntity);
    this.deliveries = dataSource.getRepository(PushDeliveryEntity);
  }

  async upsert(config: PushConfigEntity): Promise<void> {
    await this.configs.upsert(config, ['agentId', 'owner', 'taskId', 'configId']);
  }

  forTask(agentId: string, owner: string, taskId: string): Promise<PushConfigEntity[]> {
    return this.configs.find({ where: { agentId, owner, taskId }, order: { createdAt: 'ASC' } });
  }

  async remove(agentId: string, owner: string, taskId: string, configId?: string): Promise<void> {
    await this.configs.delete({ agentId, owner, taskId, ...(configId ? { configId } : {}) });
  }

  async logDelivery(delivery: PushDeliveryEntity): Promise<void> {
    await this.deliveries.insert(delivery);
  }

  /** Everything stored for an agent that is being removed. */
  async removeAgent(agentId: string): Promise<void> {
    await this.configs.delete({ agentId });
    await this.deliveries.delete({ agentId });
  }
}
