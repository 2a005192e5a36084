/**
 * What every answer must be, from the generated catalog alone: the requests the benchmark sends
 * (search queries in turn, detail ids in a seeded random order) with the check of each answer.
 */
import type { ProductEntity } from '../../src/commerce/entities/product.entity';
import { detailBody, itemJson, matches, prng, QUERIES, SearchQuery, wordsOf } from './catalog';
import type { Headers, Planned } from './load';
import { DETAIL_PATH } from './server';

export const SEARCH_PATH = '/.well-known/agents/api/search';
export const SESSION_PATH = '/.well-known/agents/api/session';
/** Queries matching more products than this are "broad" in the report (each match is fetched and ranked). */
export const BROAD_MATCHES = 2_000;
const JSON_TYPE = 'application/json; charset=utf-8';

export class Catalog {
  private readonly byId = new Map<string, ProductEntity>();
  private readonly words = new Map<string, string[]>();
  private readonly items = new Map<string, string>();

  constructor(readonly products: ProductEntity[]) {
    for (const product of products) this.byId.set(product.id, product);
  }

  get(id: unknown): ProductEntity | undefined {
    return typeof id === 'string' ? this.byId.get(id) : undefined;
  }

  wordsOf(product: ProductEntity): string[] {
    let words = this.words.get(product.id);
    if (!words) this.words.set(product.id, (words = wordsOf(product)));
    return words;
  }

  itemJson(product: ProductEntity): string {
    let json = this.items.get(product.id);
    if (!json) this.items.set(product.id, (json = itemJson(product)));
    return json;
  }

  /** How many products match all (else any) of the prefixes. */
  matchCount(prefixes: string[], all: boolean): number {
    let count = 0;
    for (const product of this.products) if (matches(prefixes, all, this.wordsOf(product))) count++;
    return count;
  }
}

/** A query, what it must find, and (once seen) the ids it answers, in order. */
export interface ExpectedSearch {
  query: SearchQuery;
  /**
   * The repository's rule: products matching every term; when there are none and the query has
   * several terms, products matching any of them (its fallback).
   */
  all: boolean;
  /** Products that match: the answer has min(limit, matches) items. */
  matches: number;
  /** The ids of the first correct answer; every later answer must be the same (the order is total: rank, name, id). */
  ids?: string[];
}

export function expectedSearches(catalog: Catalog): ExpectedSearch[] {
  return QUERIES.map((query) => {
    const every = catalog.matchCount(query.prefixes, true);
    if (every > 0 || query.prefixes.length < 2) return { query, all: true, matches: every };
    return { query, all: false, matches: catalog.matchCount(query.prefixes, false) };
  });
}

function headerProblem(headers: Headers, rateLimited: boolean): string | undefined {
  if (headers['content-type'] !== JSON_TYPE) return `headers: content-type ${headers['content-type']}`;
  // The hub's agents.json middleware counted the request (and, with the benchmark's limit, allowed it).
  if (rateLimited && !(Number(headers['x-ratelimit-remaining']) > 0))
    return `headers: X-RateLimit-Remaining ${headers['x-ratelimit-remaining']}`;
  return undefined;
}

/**
 * The check of one search answer: HTTP 200, JSON, `{ok: true, data: [...]}` with min(limit,
 * matches) items, each exactly a catalog product as `toItem` shows it and each containing every
 * term (any term, after the fallback); no id twice; and the same ids in the same order as the
 * first answer to this query.
 */
export function checkSearch(
  catalog: Catalog,
  expected: ExpectedSearch,
  limit: number,
  status: number,
  body: string,
  headers: Headers,
): string | undefined {
  if (status !== 200) return `status: HTTP ${status} ${body.slice(0, 200)}`;
  const problem = headerProblem(headers, true);
  if (problem) return problem;
  let reply: { ok?: unknown; data?: unknown };
  try {
    reply = JSON.parse(body);
  } catch {
    return `body: not JSON: ${body.slice(0, 200)}`;
  }
  if (reply.ok !== true || !Array.isArray(reply.data))
    return `body: not {ok: true, data: [...]}: ${body.slice(0, 200)}`;
  const items = reply.data as { id?: unknown }[];
  const want = Math.min(limit, expected.matches);
  if (items.length !== want) return `results: ${items.length} items, expected ${want}`;
  const ids: string[] = [];
  for (const item of items) {
    const product = catalog.get(item?.id);
    if (!product) return `results: ${JSON.stringify(item?.id)} is not a catalog id`;
    if (JSON.stringify(item) !== catalog.itemJson(product)) return `results: ${product.id} is not as in the catalog`;
    if (!matches(expected.query.prefixes, expected.all, catalog.wordsOf(product)))
      return `results: ${product.id} does not contain ${expected.query.prefixes.join(expected.all ? ' and ' : ' or ')}…`;
    ids.push(product.id);
  }
  if (new Set(ids).size !== ids.length) return `results: an id twice`;
  if (!expected.ids) expected.ids = ids;
  else if (ids.join() !== expected.ids.join()) return `order: ${ids.join()} after ${expected.ids.join()}`;
  return undefined;
}

/** The queries in turn, each request labelled with its query and its kind. */
export function searchPlanner(catalog: Catalog, expected: ExpectedSearch[], limit: number): () => Planned {
  const planned: Planned[] = expected.map((e) => ({
    path: `${SEARCH_PATH}?q=${encodeURIComponent(e.query.q)}&limit=${limit}`,
    labels: [`q:${e.query.q}`, `kind:${e.query.kind}`, e.matches > BROAD_MATCHES ? 'broad' : 'narrow'],
    check: (status, body, headers) => checkSearch(catalog, e, limit, status, body, headers),
  }));
  let next = 0;
  return () => planned[next++ % planned.length];
}

/** Every product id once, in a seeded random order (the same order for every target). */
export function shuffledIds(catalog: Catalog, seed: number): string[] {
  const ids = catalog.products.map((p) => p.id);
  const random = prng(seed ^ 0x5eed);
  for (let i = ids.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [ids[i], ids[j]] = [ids[j], ids[i]];
  }
  return ids;
}

/** The check of one detail answer: HTTP 200, the JSON content-type, and exactly the expected bytes. */
export function checkDetail(
  product: ProductEntity,
  rateLimited: boolean,
  status: number,
  body: string,
  headers: Headers,
): string | undefined {
  if (status !== 200) return `status: HTTP ${status} ${body.slice(0, 200)}`;
  const problem = headerProblem(headers, rateLimited);
  if (problem) return problem;
  if (body !== detailBody(product)) return `body: not the product's bytes: ${body.slice(0, 200)}`;
  return undefined;
}

/** GET …/detail/<id> over the shuffled ids, from the start, in turn. */
export function detailPlanner(catalog: Catalog, ids: string[], rateLimited: boolean): () => Planned {
  let next = 0;
  return () => {
    const product = catalog.get(ids[next++ % ids.length])!;
    return {
      path: `${DETAIL_PATH}${product.id}`,
      labels: [],
      check: (status, body, headers) => checkDetail(product, rateLimited, status, body, headers),
    };
  };
}
