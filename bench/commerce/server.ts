/**
 * A server under test, in its own process so it never shares an event loop with the load
 * generator. Started by server-client.ts as
 *   node -r ts-node/register/transpile-only bench/commerce/server.ts <hub|plain> '<json ServerOptions>'
 * - hub: Switchboard on fresh backends made the way the tests make theirs
 *   (test/support/backends.ts: a new database on DATABASE_URL, a unique Redis key prefix),
 *   booted as the server boots itself (createApp + startApp), with the generated catalog loaded
 *   through the app's own CatalogRepository.upsertAll.
 * - plain: a bare node:http server that answers GET …/detail/:id with the exact bytes the hub
 *   sends for that product (built from the same generated catalog), and nothing else.
 * Driven over IPC by bench/support/child-process.ts; closing drops what it made.
 */
import 'reflect-metadata';
import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { runChild, RunningServer } from '../support/child-process';
import { startInProcessHub } from '../support/in-process-hub';
import { detailBody, generateCatalog } from './catalog';

export type ServerKind = 'hub' | 'plain';

export interface ServerOptions {
  products: number;
  seed: number;
  logLevel: string;
  /** COMMERCE_RATE_LIMIT_PER_MIN: high, so the limiter counts every request but refuses none. */
  rateLimitPerMinute: number;
  /** After the load, VACUUM (ANALYZE) the products table, as autovacuum would. */
  vacuum: boolean;
  /** COMMERCE_SEARCH_CACHE_SECONDS; undefined: the app's default. */
  searchCacheSeconds?: number;
}

export interface ServerInfo {
  pid: number;
  baseUrl: string;
  /** hub: the fresh database, for EXPLAIN ANALYZE from the benchmark. */
  databaseUrl?: string;
  setup: Record<string, string | number | boolean>;
  /** hub: how the catalog got in. */
  load?: LoadReport;
}

export interface LoadReport {
  products: number;
  generateMs: number;
  /** CatalogRepository.upsertAll: one transaction, batches of 1,000 rows. */
  upsertMs: number;
  vacuumMs?: number;
  tableBytes: number;
  /** The GIN index on the generated tsvector column. */
  searchIndexBytes: number;
  allIndexesBytes: number;
}

/** The detail route's prefix, as both servers serve it. */
export const DETAIL_PATH = '/.well-known/agents/api/detail/';

async function startHub(options: ServerOptions): Promise<RunningServer<ServerInfo>> {
  const { CatalogRepository } = await import('../../src/commerce/catalog/catalog.repository');
  const { DataSource } = await import('typeorm');
  const hub = await startInProcessHub({
    LOG_LEVEL: options.logLevel,
    COMMERCE_RATE_LIMIT_PER_MIN: String(options.rateLimitPerMinute),
    ...(options.searchCacheSeconds === undefined
      ? {}
      : { COMMERCE_SEARCH_CACHE_SECONDS: String(options.searchCacheSeconds) }),
  });
  try {
    const generated = performance.now();
    const products = generateCatalog(options.products, options.seed);
    const generateMs = performance.now() - generated;
    const upserted = performance.now();
    await hub.app.get(CatalogRepository).upsertAll(products);
    const upsertMs = performance.now() - upserted;
    const db = hub.app.get(DataSource);
    let vacuumMs: number | undefined;
    if (options.vacuum) {
      const vacuumed = performance.now();
      await db.query('VACUUM (ANALYZE) products');
      vacuumMs = performance.now() - vacuumed;
    }
    const [sizes] = await db.query<
      { table_bytes: number; search_index_bytes: number; all_indexes_bytes: number; products: number }[]
    >(
      `SELECT pg_table_size('products')::float8 AS table_bytes,
              pg_relation_size('idx_products_search')::float8 AS search_index_bytes,
              pg_indexes_size('products')::float8 AS all_indexes_bytes,
              (SELECT count(*) FROM products)::int AS products`,
    );
    return {
      info: {
        pid: process.pid,
        baseUrl: hub.baseUrl,
        databaseUrl: hub.databaseUrl,
        setup: {
          ...hub.setup,
          commerceRateLimitPerMin: options.rateLimitPerMinute,
          commerceSearchCacheSeconds: options.searchCacheSeconds ?? 'default (10)',
        },
        load: {
          products: sizes.products,
          generateMs,
          upsertMs,
          vacuumMs,
          tableBytes: sizes.table_bytes,
          searchIndexBytes: sizes.search_index_bytes,
          allIndexesBytes: sizes.all_indexes_bytes,
        },
      },
      close: () => hub.close(),
    };
  } catch (error) {
    await hub.close();
    throw error;
  }
}

/** node:http alone: a map lookup and the same bytes, with the same content-type, nothing else. */
async function startPlain(options: ServerOptions): Promise<RunningServer<ServerInfo>> {
  const bodies = new Map<string, Buffer>();
  for (const product of generateCatalog(options.products, options.seed))
    bodies.set(`${DETAIL_PATH}${product.id}`, Buffer.from(detailBody(product)));
  const notFound = Buffer.from(JSON.stringify({ ok: false, error: 'Not found' }));
  const server = createHttpServer((req, res) => {
    const body = req.method === 'GET' && req.url ? bodies.get(req.url) : undefined;
    res.writeHead(body ? 200 : 404, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': (body ?? notFound).length,
    });
    res.end(body ?? notFound);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    info: {
      pid: process.pid,
      baseUrl: `http://127.0.0.1:${port}`,
      setup: { server: 'node:http', bodies: bodies.size },
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

if (require.main === module) {
  const [kind, options] = [process.argv[2] as ServerKind, JSON.parse(process.argv[3] ?? '{}') as ServerOptions];
  void runChild(() => (kind === 'hub' ? startHub(options) : startPlain(options)));
}
