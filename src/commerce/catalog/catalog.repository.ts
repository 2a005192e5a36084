import { Inject, Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { DataSource, Repository } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { AppConfig } from '../../platform/config/app-config';
import { ProductEntity } from '../entities/product.entity';

const MAX_TERMS = 8;
/** Distinct searches whose answers a replica keeps. */
const SEARCH_CACHE_ENTRIES = 1_000;

/**
 * The catalog: full-text search, browsing by category, lookups. Search answers are kept for
 * COMMERCE_SEARCH_CACHE_SECONDS: a broad word ranks thousands of matches, and the frequent queries
 * are the broad ones. Writes through this repository clear them; an import by another process or
 * replica shows in search within that time. Detail, carts and checkout always read the table.
 */
@Injectable()
export class CatalogRepository {
  private readonly products: Repository<ProductEntity>;
  private readonly searches?: LRUCache<string, ProductEntity[], { terms: string[]; limit: number }>;

  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    config: AppConfig,
  ) {
    this.products = dataSource.getRepository(ProductEntity);
    const ttl = config.commerce.searchCacheSeconds * 1_000;
    if (ttl > 0)
      this.searches = new LRUCache({
        max: SEARCH_CACHE_ENTRIES,
        ttl,
        // One query to PostgreSQL however many callers ask the same at once.
        fetchMethod: (_key, _stale, { context }) => this.uncachedSearch(context.terms, context.limit),
      });
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
    this.searches?.clear();
  }

  /**
   * Ranked full-text search (English stemming, so "mugs" finds "mug"; every word also matches as a
   * prefix, so "blu" finds "blue"). All words must match; if none does, any word may.
   */
  async search(q: string, limit: number): Promise<ProductEntity[]> {
    const terms = (q.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, MAX_TERMS);
    if (terms.length === 0) return [];
    if (!this.searches) return this.uncachedSearch(terms, limit);
    const found = await this.searches.fetch(`${limit} ${terms.join(' ')}`, { context: { terms, limit } });
    return [...(found ?? [])];
  }

  /**
   * What the catalog sells, in a few words: the last word of its products' names ("Electric
   * *Kettle*", "Dotted *Notebook*"; three letters or more, so not the "m" of "Cable 2m"), the most
   * common first, at most `limit`.
   */
  async kinds(limit: number): Promise<string[]> {
    const rows: { kind: string }[] = await this.dataSource.query(
      `SELECT kind FROM (SELECT lower(substring(name FROM '([[:alpha:]]+)[^[:alpha:]]*$')) AS kind FROM products) k
       WHERE length(kind) >= 3 GROUP BY kind ORDER BY count(*) DESC, kind LIMIT $1`,
      [limit],
    );
    return rows.map((row) => row.kind);
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

  /**
   * The best `limit` matches by ts_rank, then name and id (a total order: the same query always
   * answers the same list). Ranked on narrow rows (id, rank, name) and only the winners fetched
   * whole: a broad word matches thousands of products, and sorting their full rows was half the cost.
   */
  private async uncachedSearch(terms: string[], limit: number): Promise<ProductEntity[]> {
    const all = await this.ranked(terms.map((t) => `${t}:*`).join(' & '), limit);
    return all.length > 0 || terms.length === 1 ? all : this.ranked(terms.map((t) => `${t}:*`).join(' | '), limit);
  }

  private ranked(tsquery: string, limit: number): Promise<ProductEntity[]> {
    return this.products
      .createQueryBuilder('p')
      .innerJoin(
        `(SELECT c.id, ts_rank(c.search, q) AS rank FROM products c, to_tsquery('english', :tsquery) q
           WHERE c.search @@ q ORDER BY rank DESC, c.name, c.id LIMIT :limit)`,
        'best',
        'best.id = p.id',
      )
      .setParameters({ tsquery, limit })
      .orderBy('best.rank', 'DESC')
      .addOrderBy('p.name')
      .addOrderBy('p.id')
      .getMany();
  }
}
