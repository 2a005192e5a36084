import { Inject, Injectable } from '@nestjs/common';
import { DataSource, QueryFailedError, Repository } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { AgentEntity, AgentStatus } from './entities/agent.entity';

/** agents: small named queries; the TypeORM repository stays inside. */
@Injectable()
export class AgentRepository {
  private readonly repo: Repository<AgentEntity>;

  constructor(@Inject(DataSource) dataSource: DataSource) {
    this.repo = dataSource.getRepository(AgentEntity);
  }

  /** Inserts a new agent; returns false if the id is taken. */
  async insert(agent: AgentEntity): Promise<boolean> {
    try {
      // jsonb columns typed as plain records trip TypeORM's deep-partial type; the row is complete.
      await this.repo.insert(agent as QueryDeepPartialEntity<AgentEntity>);
      return true;
    } catch (error) {
      if (error instanceof QueryFailedError && (error.driverError as { code?: string }).code === '23505') return false;
      throw error;
    }
  }

  findById(id: string): Promise<AgentEntity | null> {
    return this.repo.findOne({ where: { id } });
  }

  exists(id: string): Promise<boolean> {
    return this.repo.exists({ where: { id } });
  }

  /** The agent registered with this base URL (the first, if several were). */
  findByBaseUrl(baseUrl: string): Promise<AgentEntity | null> {
    return this.repo.findOne({ where: { baseUrl }, order: { createdAt: 'ASC' } });
  }

  list(): Promise<AgentEntity[]> {
    return this.repo.find({ order: { createdAt: 'ASC' } });
  }

  async updateCard(id: string, card: Record<string, unknown>, cardUrl: string, name: string, at: Date): Promise<void> {
    await this.repo.update(
      { id },
      {
        card: card as QueryDeepPartialEntity<Record<string, unknown>>,
        cardUrl,
        name,
        status: 'connected',
        lastSeenAt: at,
        lastCheckError: null,
        updatedAt: at,
      },
    );
  }

  /** Records a health check; a disabled agent stays disabled. */
  async recordCheck(
    id: string,
    status: Exclude<AgentStatus, 'disabled'>,
    error: string | null,
    at: Date,
  ): Promise<void> {
    await this.repo
      .createQueryBuilder()
      .update(AgentEntity)
      .set({
        status,
        lastCheckError: error,
        updatedAt: at,
        ...(status === 'connected' ? { lastSeenAt: at } : {}),
      })
      .where('id = :id AND status <> :disabled', { id, disabled: 'disabled' })
      .execute();
  }

  async delete(id: string): Promise<boolean> {
    return ((await this.repo.delete({ id })).affected ?? 0) > 0;
  }
}
