/**
 * Where a search's time goes in PostgreSQL: EXPLAIN (ANALYZE, BUFFERS) of the statement
 * CatalogRepository.search runs, for every query of the mix, on the run's own database (after the
 * load runs, so it does not disturb them). The SQL below mirrors CatalogRepository.ranked(); the
 * ids it returns are compared with the ids the hub answered, so a drift between the two shows.
 */
import { Client as PgClient } from 'pg';
import type { SearchQuery } from './catalog';

/** As in CatalogRepository: at most 8 words, each a prefix, all of them (then, if nothing, any). */
const MAX_TERMS = 8;
const RANKED_SQL = `SELECT p.id FROM products p
  INNER JOIN (SELECT c.id, ts_rank(c.search, q) AS rank FROM products c, to_tsquery('english', $1) q
    WHERE c.search @@ q ORDER BY rank DESC, c.name, c.id LIMIT $2) best ON best.id = p.id
  ORDER BY best.rank DESC, p.name ASC, p.id ASC`;
const COUNT_SQL = `SELECT count(*) FROM products p WHERE p.search @@ to_tsquery('english', $1)`;

export interface StageExplain {
  tsquery: string;
  /** Median "Execution Time" of EXPLAIN ANALYZE over the repeats, ms. */
  executionMs: number;
  planningMs: number;
  /** Median execution time of count(*) with the same condition: finding and fetching the matches, without ranking. */
  countMs: number;
  /** Rows that matched (the Bitmap Heap Scan's actual rows), each ranked and sorted. */
  matchedRows: number;
  heapBlocks: number;
  sharedHits: number;
  sharedReads: number;
  usesSearchIndex: boolean;
  sortMethod?: string;
  /** The plan (text) of the last repeat. */
  plan: string;
}

export interface QueryExplain {
  q: string;
  /** The stages the repository runs: the all-words query, and the any-word one when that found nothing. */
  stages: StageExplain[];
  /** Σ stage execution times, ms. */
  executionMs: number;
  /** The ids the SQL returns (last stage that ran). */
  ids: string[];
}

interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  'Actual Rows'?: number;
  'Exact Heap Blocks'?: number;
  'Lossy Heap Blocks'?: number;
  'Sort Method'?: string;
  'Shared Hit Blocks'?: number;
  'Shared Read Blocks'?: number;
  Plans?: PlanNode[];
}

function walk(node: PlanNode, visit: (node: PlanNode) => void): void {
  visit(node);
  for (const child of node.Plans ?? []) walk(child, visit);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

async function explainStage(pg: PgClient, tsquery: string, limit: number, repeats: number): Promise<StageExplain> {
  const executions: number[] = [];
  const plannings: number[] = [];
  const counts: number[] = [];
  let root: PlanNode | undefined;
  for (let i = 0; i < repeats; i++) {
    const { rows } = await pg.query(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${RANKED_SQL}`, [tsquery, limit]);
    const [result] = rows[0]['QUERY PLAN'] as { Plan: PlanNode; 'Execution Time': number; 'Planning Time': number }[];
    executions.push(result['Execution Time']);
    plannings.push(result['Planning Time']);
    root = result.Plan;
    const counted = await pg.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${COUNT_SQL}`, [tsquery]);
    counts.push((counted.rows[0]['QUERY PLAN'] as { 'Execution Time': number }[])[0]['Execution Time']);
  }
  const text = await pg.query(`EXPLAIN (ANALYZE, BUFFERS) ${RANKED_SQL}`, [tsquery, limit]);
  let matchedRows = 0;
  let heapBlocks = 0;
  let usesSearchIndex = false;
  let sortMethod: string | undefined;
  walk(root!, (node) => {
    if (node['Index Name'] === 'idx_products_search') usesSearchIndex = true;
    if (node['Node Type'] === 'Bitmap Heap Scan' || node['Node Type'] === 'Seq Scan') {
      matchedRows += node['Actual Rows'] ?? 0;
      heapBlocks += (node['Exact Heap Blocks'] ?? 0) + (node['Lossy Heap Blocks'] ?? 0);
    }
    sortMethod ??= node['Sort Method'];
  });
  return {
    tsquery,
    executionMs: median(executions),
    planningMs: median(plannings),
    countMs: median(counts),
    matchedRows,
    heapBlocks,
    sharedHits: root!['Shared Hit Blocks'] ?? 0,
    sharedReads: root!['Shared Read Blocks'] ?? 0,
    usesSearchIndex,
    sortMethod,
    plan: text.rows.map((row: Record<string, string>) => row['QUERY PLAN']).join('\n'),
  };
}

/** Each query as the repository runs it; `repeats` EXPLAIN ANALYZE runs per stage (medians). */
export async function explainSearches(
  databaseUrl: string,
  queries: SearchQuery[],
  limit: number,
  repeats: number,
): Promise<QueryExplain[]> {
  const pg = new PgClient({ connectionString: databaseUrl });
  await pg.connect();
  try {
    await pg.query(`SELECT to_tsquery('english', 'warm:*')`); // loads the dictionary in this backend
    const out: QueryExplain[] = [];
    for (const query of queries) {
      const terms = (query.q.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, MAX_TERMS);
      const stages: StageExplain[] = [];
      let ids: string[] = [];
      for (const operator of terms.length > 1 ? [' & ', ' | '] : [' & ']) {
        const tsquery = terms.map((t) => `${t}:*`).join(operator);
        const { rows } = await pg.query(RANKED_SQL, [tsquery, limit]);
        ids = rows.map((row: { id: string }) => row.id);
        stages.push(await explainStage(pg, tsquery, limit, repeats));
        if (ids.length > 0) break;
      }
      out.push({ q: query.q, stages, executionMs: stages.reduce((sum, s) => sum + s.executionMs, 0), ids });
    }
    return out;
  } finally {
    await pg.end();
  }
}
