import { Inject, Injectable } from '@nestjs/common';
import { DataSource, EntityManager, IsNull, Repository } from 'typeorm';
import { ApiKeyEntity } from './entities/api-key.entity';

/** api_keys persistence: small named queries; the TypeORM repository stays inside. */
@Injectable()
export class ApiKeyRepository {
  private readonly repo: Repository<ApiKeyEntity>;

  constructor(@Inject(DataSource) source: DataSource | EntityManager) {
    this.repo = source.getRepository(ApiKeyEntity);
  }

  async insert(key: ApiKeyEntity): Promise<void> {
    await this.repo.insert(key);
  }

  /** Unrevoked keys with this prefix; expiry is checked by the caller. */
  findUnrevokedByPrefix(prefix: string): Promise<ApiKeyEntity[]> {
    return this.repo.find({ where: { lookupPrefix: prefix, revokedAt: IsNull() } });
  }

  findById(id: string): Promise<ApiKeyEntity | null> {
    return this.repo.findOne({ where: { id } });
  }

  findUnrevokedBySource(source: ApiKeyEntity['source']): Promise<ApiKeyEntity[]> {
    return this.repo.find({ where: { source, revokedAt: IsNull() } });
  }

  list(): Promise<ApiKeyEntity[]> {
    return this.repo.find({ order: { createdAt: 'ASC' } });
  }

  /** Whether any unrevoked, unexpired key holds the admin scope. */
  async hasUsableAdminKey(now: Date): Promise<boolean> {
    return this.repo
      .createQueryBuilder('k')
      .where('k.revoked_at IS NULL')
      .andWhere('(k.expires_at IS NULL OR k.expires_at > :now)', { now })
      .andWhere(`'admin' = ANY(k.scopes)`)
      .getExists();
  }

  /** Marks the key revoked; returns false if it was already revoked or does not exist. */
  async revoke(id: string, at: Date): Promise<boolean> {
    const result = await this.repo.update({ id, revokedAt: IsNull() }, { revokedAt: at });
    return (result.affected ?? 0) > 0;
  }

  async touchLastUsed(id: string, at: Date): Promise<void> {
    await this.repo.update({ id }, { lastUsedAt: at });
  }

  /**
   * Runs `work` while holding a transaction-scoped advisory lock, so concurrent replicas do
   * one-time key bootstrap one after another.
   */
  async withBootstrapLock<T>(work: (repo: ApiKeyRepository) => Promise<T>): Promise<T> {
    return this.repo.manager.transaction(async (manager) => {
      await manager.query('SELECT pg_advisory_xact_lock(727274002)');
      return work(new ApiKeyRepository(manager));
    });
  }
}
