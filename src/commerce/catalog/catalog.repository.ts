import { Inject, Injectable } from '@nestjs/common';
import { DataSource, Repository } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { ProductEntity } from '../entities/product.entity';

const MAX_TERMS = 8;

/** The catalog: full-text search, browsing by category, lookups. */
@Injectable()
export class CatalogRepository {
  private readonly products: Repository<ProductEntity>;

  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {
    this.products = dataSource.getRepository(ProductEntity);
  }

  findById(id: string): Promise<ProductEntity | null> {
    return this.products.findOne({ where: { id } });
  }

  findByIds(ids: string[]): Promise<ProductEntity[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.products.createQueryBuilder('p').where('p.id IN (:...ids)', { ids }).getMany();
  }

  count(): Promise<number> {
    return this.products.count();
  }

  /** Inserts or replaces (by id) every product, in one transaction: all of them or none. */
  async upsertAll(products: ProductEntity[]): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      for (let i = 0; i < products.length; i += 1_000) {
        await manager
          .createQueryBuilder()
          .insert()
          .into(ProductEntity)
          .values(products.slice(i, i + 1_000) as QueryDeepPartialEntity<ProductEntity>[])
          .orUpdate(['name', 'description', 'price_minor', 'currency', 'category', 'stock', 'attributes'], ['id'])
          .execute();
      }
    });
  }

  /**
   * Ranked full-text search (English stemming, so "mugs" finds "mug"; every word also matches as a
   * prefix, so "blu" finds "blue"). All words must match; if none does, any word may.
   */
  async search(q: string, limit: number): Promise<ProductEntity[]> {
    const terms = (q.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, MAX_TERMS);
    if (terms.length === 0) return [];
    const all = await this.ranked(terms.map((t) => `${t}:*`).join(' & '), limit);
    return all.length > 0 || terms.length === 1 ? all : this.ranked(terms.map((t) => `${t}:*`).join(' | '), limit);
  }

  /** Categories with their product counts, largest first. */
  async categories(): Promise<{ category: string; count: number }[]> {
    const rows: { category: string; count: string }[] = await this.dataSource.query(
      `SELECT category, count(*) AS count FROM products GROUP BY category ORDER BY count(*) DESC, category`,
    );
    return rows.map((row) => ({ category: row.category, count: Number(row.count) }));
  }

  async browse(
    category: string | undefined,
    limit: number,
    offset: number,
  ): Promise<{ items: ProductEntity[]; total: number }> {
    const query = this.products.createQueryBuilder('p');
    if (category) query.where('lower(p.category) = lower(:category)', { category });
    const [items, total] = await query
      .orderBy('p.category')
      .addOrderBy('p.name')
      .addOrderBy('p.id')
      .skip(offset)
      .take(limit)
      .getManyAndCount();
    return { items, total };
  }

  private ranked(tsquery: string, limit: number): Promise<ProductEntity[]> {
    return this.products
      .createQueryBuilder('p')
      .where(`p.search @@ to_tsquery('english', :tsquery)`, { tsquery })
      .orderBy(`ts_rank_cd(p.search, to_tsquery('english', :tsquery))`, 'DESC')
      .addOrderBy('p.name')
      .addOrderBy('p.id')
      .limit(limit)
      .getMany();
  }
}
