/**
 * bench/commerce: the agents.json shop on a generated 100,000-product catalog in PostgreSQL.
 * - search: latency (p50/p90/p99) of GET /.well-known/agents/api/search?q=…&limit=10 over a mix
 *   of queries, one request at a time (the target: p99 ≤ 20 ms), and throughput at --connections;
 * - detail: throughput of GET /.well-known/agents/api/detail/:id from the hub and from a plain
 *   node:http server that returns the same bytes, in one run; the ratio hub / plain;
 * then EXPLAIN ANALYZE of every query of the mix, to say where a search's time goes.
 *   npm run bench:commerce [-- --help]
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { formatSummary, summarizeFile } from '../a2a-send/profile-summary';
import { cpuBetween, CpuShares, sampleCpu, waitForQuiet } from '../task-tree/cpu';
import {
  BROAD_MATCHES,
  Catalog,
  detailPlanner,
  expectedSearches,
  ExpectedSearch,
  searchPlanner,
  SESSION_PATH,
  shuffledIds,
} from './answers';
import { generateCatalog, QueryKind } from './catalog';
import { explainSearches, QueryExplain } from './explain';
import { LatencyStats, measure, Measurement, Planned } from './load';
import type { ServerOptions } from './server';
import { ServerProcess } from './server-client';
import { redactUrl } from '../../src/platform/logging/redact-url';
import { PROJECT_ROOT } from '../../src/paths';
import { DEFAULT_DATABASE_URL, DEFAULT_REDIS_URL } from '../support/in-process-hub';

/** The target: p99 of one search at a time. */
const TARGET_P99_MS = 20;
/** COMMERCE_RATE_LIMIT_PER_MIN for the hub: the most the app accepts; never reached here. */
const RATE_LIMIT_PER_MIN = 1_000_000;
/** Cores other programs may use during a window before it is marked disturbed. */
const DISTURBED_CORES = 0.3;
const QUIET_WAIT_MAX_MS = 60_000;

const USAGE = `npm run bench:commerce -- [options]
  --products N          catalog size (default 100000), generated from --seed
  --seed N              PRNG seed of the catalog and of the detail ids' order (default 1)
  --duration S          seconds measured per throughput window: search at --connections, detail
                        on the hub, detail on the plain server (default 10)
  --latency-duration S  seconds of one-at-a-time searches, the latency target's window (default 20)
  --warmup S            seconds of load before each window, checked and thrown away (default 2)
  --connections N       connections for the throughput windows (default 8)
  --limit N             the search's limit parameter (default 10)
  --explain-repeats N   EXPLAIN ANALYZE runs per query, medians reported (default 3; 0: none)
  --search-cache S      the hub's COMMERCE_SEARCH_CACHE_SECONDS (default: the app's default, 10);
                        0 measures PostgreSQL's ranking on every search
  --one-client          send no session token: every connection counts against the rate limiter's
                        one bucket for 127.0.0.1 (by default each connection is an agent with a
                        shop session of its own, made through the API, and its own bucket)
  --no-vacuum           measure straight after the import, without VACUUM (ANALYZE) of the
                        products table (autovacuum would do it; this server may have it off)
  --database-url URL    PostgreSQL admin URL; a fresh database is made on it and dropped after
                        (default: $DATABASE_URL, else ${DEFAULT_DATABASE_URL})
  --redis-url URL       Redis for the rate limiter's buckets, under a unique key prefix
                        (default: $REDIS_URL, else ${DEFAULT_REDIS_URL})
  --no-redis            the in-process key-value store instead of Redis
  --profile             CPU-profile the hub during the one-at-a-time search window and the detail
                        window (slows it: those figures are not for comparison)
  --log-level LEVEL     the hub's LOG_LEVEL (default silent)
  --retries N           measure a window again when other programs disturbed it, up to N times
                        (default 2)
  --no-quiet-wait       start each window at once (by default the benchmark first waits, up to
                        ${QUIET_WAIT_MAX_MS / 1000} s, for other programs to use under ${DISTURBED_CORES} core)
  --out FILE            JSON results (default bench/results/commerce-<time>.json)
  --help                this text

Exit code: 0, also when a target is missed; 2 when any answer was wrong (or a server failed).`;

function options() {
  const { values } = parseArgs({
    options: {
      products: { type: 'string', default: '100000' },
      seed: { type: 'string', default: '1' },
      duration: { type: 'string', default: '10' },
      'latency-duration': { type: 'string', default: '20' },
      warmup: { type: 'string', default: '2' },
      connections: { type: 'string', default: '8' },
      limit: { type: 'string', default: '10' },
      'explain-repeats': { type: 'string', default: '3' },
      'no-vacuum': { type: 'boolean', default: false },
      'search-cache': { type: 'string' },
      'one-client': { type: 'boolean', default: false },
      'database-url': { type: 'string', default: process.env.DATABASE_URL || DEFAULT_DATABASE_URL },
      'redis-url': { type: 'string', default: process.env.REDIS_URL || DEFAULT_REDIS_URL },
      'no-redis': { type: 'boolean', default: false },
      profile: { type: 'boolean', default: false },
      'log-level': { type: 'string', default: 'silent' },
      'no-quiet-wait': { type: 'boolean', default: false },
      retries: { type: 'string', default: '2' },
      out: { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const int = (name: string, raw: string, min = 1, max = Number.MAX_SAFE_INTEGER) => {
    const n = Number(raw);
    if (!Number.isInteger(n) || n < min || n > max)
      throw new Error(`--${name} must be an integer from ${min} to ${max}, not ${raw}`);
    return n;
  };
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  return {
    products: int('products', values.products, 1, 999_999),
    seed: int('seed', values.seed, 0, 2 ** 32 - 1),
    durationSeconds: int('duration', values.duration),
    latencyDurationSeconds: int('latency-duration', values['latency-duration']),
    warmupSeconds: int('warmup', values.warmup, 0),
    connections: int('connections', values.connections),
    limit: int('limit', values.limit, 1, 100),
    explainRepeats: int('explain-repeats', values['explain-repeats'], 0),
    vacuum: !values['no-vacuum'],
    searchCacheSeconds:
      values['search-cache'] === undefined ? undefined : int('search-cache', values['search-cache'], 0, 3_600),
    oneClient: values['one-client'],
    databaseUrl: values['database-url'],
    redisUrl: values['no-redis'] ? undefined : values['redis-url'],
    profile: values.profile,
    logLevel: values['log-level'],
    quietWait: !values['no-quiet-wait'],
    retries: int('retries', values.retries, 0),
    out: values.out ?? join(PROJECT_ROOT, 'bench', 'results', `commerce-${stamp}.json`),
  };
}

type Options = ReturnType<typeof options>;

interface Window {
  name: string;
  target: 'hub' | 'plain';
  connections: number;
  measurement: Measurement;
  cpu: CpuShares;
  /** Server (and PostgreSQL) CPU per correct answer, µs. */
  serverMicrosPerAnswer: number;
  pgMicrosPerAnswer: number;
  disturbed: boolean;
  /** Disturbed, and measured again: left out of the tables. */
  superseded?: boolean;
  quietWaitMs: number;
  profile?: { path: string; summary: string };
}

const fixed = (value: number, digits: number) => (Number.isFinite(value) ? value.toFixed(digits) : '–');
const thousands = (n: number) => Math.round(n).toLocaleString('en-US').replace(/,/g, ' ');

function databaseOf(server: ServerProcess): string {
  return server.info.databaseUrl ? new URL(server.info.databaseUrl).pathname.slice(1) : '';
}

interface WindowSpec {
  name: string;
  target: 'hub' | 'plain';
  server: ServerProcess;
  connections: number;
  durationSeconds: number;
  next: () => Planned;
  profile: boolean;
}

/** One measured window on one server: wait for quiet, warm up, then measure with CPU around it. */
async function window(o: Options, spec: WindowSpec, database: string, tokens: string[]): Promise<Window> {
  const { name, target, server, connections, durationSeconds, next, profile } = spec;
  const quiet = o.quietWait
    ? await waitForQuiet(server.pid, database, DISTURBED_CORES, QUIET_WAIT_MAX_MS)
    : { waitedMs: 0, foreign: NaN };
  if (quiet.waitedMs > 1500)
    console.log(
      `  (waited ${fixed(quiet.waitedMs / 1000, 0)} s for other programs to go quiet; they now use ${fixed(quiet.foreign, 2)} cores)`,
    );
  const profilePath = join(
    dirname(o.out),
    'profiles',
    `commerce-${name.replace(/\W+/g, '-')}-${Date.now()}.cpuprofile`,
  );
  let before = sampleCpu(server.pid, database);
  let after = before;
  const measurement = await measure(
    {
      origin: server.info.baseUrl,
      connections,
      durationSeconds,
      warmupSeconds: o.warmupSeconds,
      next,
      sessionTokens: tokens,
    },
    {
      beforeMeasured: async () => {
        if (profile) {
          mkdirSync(dirname(profilePath), { recursive: true });
          await server.request({ type: 'profile-start' });
        }
        before = sampleCpu(server.pid, database);
      },
      afterMeasured: async () => {
        after = sampleCpu(server.pid, database);
        if (profile) await server.request({ type: 'profile-stop', path: profilePath });
      },
    },
  );
  const cpu = cpuBetween(before, after);
  const result: Window = {
    name,
    target,
    connections,
    measurement,
    cpu,
    serverMicrosPerAnswer: (cpu.serverMs * 1000) / measurement.ok,
    pgMicrosPerAnswer: (cpu.pgMs * 1000) / measurement.ok,
    disturbed: cpu.cores.foreign > DISTURBED_CORES,
    quietWaitMs: quiet.waitedMs,
  };
  if (profile)
    result.profile = {
      path: profilePath,
      summary: formatSummary(summarizeFile(profilePath, 15, measurement.ok)),
    };
  const m = measurement;
  console.log(
    `[${name}] ${fixed(m.requestsPerSecond, 0)} req/s, p50 ${fixed(m.latencyMs.p50, 2)} ms, p99 ${fixed(m.latencyMs.p99, 2)} ms, ` +
      `${thousands(m.ok)} correct answers` +
      `${m.errorTotal > 0 ? `, ${thousands(m.errorTotal)} WRONG (${JSON.stringify(m.errors)})` : ''}` +
      `${result.disturbed ? ` (DISTURBED: other programs used ${fixed(cpu.cores.foreign, 2)} cores)` : ''}`,
  );
  for (const sample of m.errorSamples.slice(0, 3)) console.log(`    ${sample}`);
  return result;
}

function table(header: string[], rows: string[][], leftColumns = 1): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const format = (cells: string[]) =>
    cells.map((c, i) => (i < leftColumns ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  return [format(header), ...rows.map(format)].join('\n');
}

function windowRows(windows: Window[]): string {
  return table(
    [
      'window',
      'conn.',
      'req/s',
      'p50 ms',
      'p90 ms',
      'p99 ms',
      'mean ms',
      'max ms',
      'bytes/answer',
      'CPU µs/answer srv/pg',
      'cores gen/srv/pg/redis/other',
      'errors',
    ],
    windows.map((w) => {
      const m = w.measurement;
      const c = w.cpu.cores;
      return [
        w.name,
        String(w.connections),
        fixed(m.requestsPerSecond, 0),
        fixed(m.latencyMs.p50, 2),
        fixed(m.latencyMs.p90, 2),
        fixed(m.latencyMs.p99, 2),
        fixed(m.latencyMs.mean, 2),
        fixed(m.latencyMs.max, 1),
        fixed(m.bytesPerResponse, 0),
        `${fixed(w.serverMicrosPerAnswer, 0)}/${fixed(w.pgMicrosPerAnswer, 0)}`,
        `${[c.bench, c.server, c.pg, c.redis, c.foreign].map((v) => fixed(v, 2)).join('/')}${w.disturbed ? ' !' : ''}`,
        String(m.errorTotal),
      ];
    }),
  );
}

const KINDS: QueryKind[] = ['word', 'plural', 'two words', 'prefix', 'fallback', 'no hits'];

function byKindRows(expected: ExpectedSearch[], w: Window, explained: QueryExplain[] | undefined): string {
  const rows = KINDS.map((kind) => {
    const mine = expected.filter((e) => e.query.kind === kind);
    const stats = w.measurement.byLabel[`kind:${kind}`] as (LatencyStats & { count: number }) | undefined;
    const matches = mine.map((e) => e.matches);
    const db = explained?.filter((x) => mine.some((e) => e.query.q === x.q)).map((x) => x.executionMs) ?? [];
    return [
      kind,
      String(mine.length),
      `${thousands(Math.min(...matches))}–${thousands(Math.max(...matches))}`,
      String(stats?.count ?? 0),
      fixed(stats?.p50 ?? NaN, 2),
      fixed(stats?.p90 ?? NaN, 2),
      fixed(stats?.p99 ?? NaN, 2),
      db.length ? `${fixed(Math.min(...db), 1)}–${fixed(Math.max(...db), 1)}` : '–',
    ];
  });
  return table(['kind', 'queries', 'matches', 'answers', 'p50 ms', 'p90 ms', 'p99 ms', 'SQL ms (EXPLAIN)'], rows);
}

function perQueryRows(expected: ExpectedSearch[], w: Window, explained: QueryExplain[] | undefined): string {
  const rows = expected.map((e) => {
    const stats = w.measurement.byLabel[`q:${e.query.q}`] as LatencyStats | undefined;
    const x = explained?.find((item) => item.q === e.query.q);
    const stage = x?.stages[x.stages.length - 1];
    return [
      JSON.stringify(e.query.q),
      e.query.kind,
      thousands(e.matches),
      fixed(stats?.p50 ?? NaN, 2),
      fixed(stats?.p99 ?? NaN, 2),
      x ? fixed(x.executionMs, 2) : '–',
      x ? x.stages.map((s) => fixed(s.countMs, 2)).join('+') : '–',
      x ? x.stages.map((s) => thousands(s.heapBlocks)).join('+') : '–',
      stage ? (x.stages.every((s) => s.usesSearchIndex) ? 'yes' : 'NO') : '–',
    ];
  });
  return table(
    ['query', 'kind', 'matches', 'HTTP p50', 'HTTP p99', 'SQL ms', 'count(*) ms', 'heap blocks', 'GIN'],
    rows,
    2,
  );
}

async function main(): Promise<void> {
  const o = options();
  const machine = `${cpus().length} × ${cpus()[0]?.model.trim() ?? '?'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
  console.log(`Commerce benchmark: ${machine}`);
  console.log(
    `${thousands(o.products)} generated products (seed ${o.seed}); PostgreSQL ${redactUrl(o.databaseUrl)} (fresh database); ` +
      `${o.redisUrl ? `Redis ${o.redisUrl}` : 'in-process key-value store'}; COMMERCE_RATE_LIMIT_PER_MIN ${thousands(RATE_LIMIT_PER_MIN)}, ` +
      `${o.oneClient ? 'one client: no session token, one rate-limit bucket for 127.0.0.1' : 'a shop session (and rate-limit bucket) per connection'}\n`,
  );

  const generated = performance.now();
  const catalog = new Catalog(generateCatalog(o.products, o.seed));
  const expected = expectedSearches(catalog);
  const ids = shuffledIds(catalog, o.seed);
  console.log(
    `catalog generated in ${fixed((performance.now() - generated) / 1000, 1)} s (with the expected matches of ${expected.length} queries)`,
  );

  const windows: Window[] = [];
  const failures: string[] = [];
  let explained: QueryExplain[] | undefined;
  const drift: string[] = [];
  let hub: ServerProcess | undefined;
  let plain: ServerProcess | undefined;
  const serverOptions: ServerOptions = {
    products: o.products,
    seed: o.seed,
    logLevel: o.logLevel,
    rateLimitPerMinute: RATE_LIMIT_PER_MIN,
    vacuum: o.vacuum,
    searchCacheSeconds: o.searchCacheSeconds,
  };
  try {
    const started = performance.now();
    hub = await ServerProcess.start('hub', 'hub', serverOptions, {
      DATABASE_URL: o.databaseUrl,
      REDIS_URL: o.redisUrl,
    });
    const load = hub.info.load!;
    console.log(
      `hub ready in ${fixed((performance.now() - started) / 1000, 1)} s: ${thousands(load.products)} products loaded by ` +
        `CatalogRepository.upsertAll in ${fixed(load.upsertMs / 1000, 1)} s` +
        `${load.vacuumMs !== undefined ? `, VACUUM (ANALYZE) ${fixed(load.vacuumMs / 1000, 1)} s` : ' (no VACUUM)'}; ` +
        `table ${fixed(load.tableBytes / 2 ** 20, 0)} MiB, GIN index ${fixed(load.searchIndexBytes / 2 ** 20, 1)} MiB, ` +
        `all indexes ${fixed(load.allIndexesBytes / 2 ** 20, 1)} MiB`,
    );
    if (load.products !== o.products) failures.push(`the hub holds ${load.products} products, not ${o.products}`);
    plain = await ServerProcess.start('plain', 'plain', serverOptions);
    console.log(`plain node:http server ready (${thousands(Number(plain.info.setup.bodies))} bodies)\n`);

    // Each connection an agent with a shop session of its own (its own rate-limit bucket).
    const tokens = o.oneClient ? [] : await createSessions(hub.info.baseUrl, o.connections);
    const hubDb = databaseOf(hub);
    const specs: WindowSpec[] = [
      {
        name: 'search',
        target: 'hub',
        server: hub,
        connections: 1,
        durationSeconds: o.latencyDurationSeconds,
        next: searchPlanner(catalog, expected, o.limit),
        profile: o.profile,
      },
      {
        name: 'search',
        target: 'hub',
        server: hub,
        connections: o.connections,
        durationSeconds: o.durationSeconds,
        next: searchPlanner(catalog, expected, o.limit),
        profile: false,
      },
      {
        name: 'detail hub',
        target: 'hub',
        server: hub,
        connections: o.connections,
        durationSeconds: o.durationSeconds,
        next: detailPlanner(catalog, ids, true),
        profile: o.profile,
      },
      {
        name: 'detail plain',
        target: 'plain',
        server: plain,
        connections: o.connections,
        durationSeconds: o.durationSeconds,
        next: detailPlanner(catalog, ids, false),
        profile: false,
      },
    ];
    for (const spec of specs) {
      // A window other programs disturbed is measured again, up to --retries times; the
      // disturbed one stays in the JSON, marked superseded, and out of the tables.
      for (let attempt = 0; ; attempt++) {
        const measured = await window(o, spec, hubDb, tokens);
        windows.push(measured);
        if (!measured.disturbed || attempt >= o.retries || measured.measurement.errorTotal > 0) break;
        measured.superseded = true;
        console.log(`  (measuring ${spec.name} again)`);
      }
    }

    if (o.explainRepeats > 0) {
      explained = await explainSearches(
        hub.info.databaseUrl!,
        expected.map((e) => e.query),
        o.limit,
        o.explainRepeats,
      );
      for (const x of explained) {
        const e = expected.find((item) => item.query.q === x.q)!;
        if (e.ids && x.ids.join() !== e.ids.join())
          drift.push(`${JSON.stringify(x.q)}: the SQL returns ${x.ids.join()}, the hub answered ${e.ids.join()}`);
      }
    }
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    failures.push(message);
    console.log(`FAILED: ${message}`);
  } finally {
    await plain?.stop();
    await hub?.stop();
  }

  const kept = windows.filter((w) => !w.superseded);
  const latency = kept.find((w) => w.name === 'search' && w.connections === 1);
  const detailHub = kept.find((w) => w.name === 'detail hub');
  const detailPlain = kept.find((w) => w.name === 'detail plain');
  if (kept.length > 0) {
    console.log(`\nResults (${thousands(o.products)} products; every answer checked):\n`);
    console.log(windowRows(kept));
    console.log(`
  search        GET /.well-known/agents/api/search?q=…&limit=${o.limit}, the ${expected.length} queries of the mix in turn
  detail        GET /.well-known/agents/api/detail/<id>, all ${thousands(ids.length)} ids in a seeded random order
                (the same order for both servers); plain: node:http returning the same bytes
  p50…max ms    per request, written → answer read (autocannon), exact percentiles over every answer
  bytes/answer  response size, headers included
  CPU µs/answer CPU time of the server process / of PostgreSQL (the run's database and its helpers) per answer
  cores         used during the window by the load generator (this process), the server, PostgreSQL,
                Redis and everything else; "!": other programs used more than ${DISTURBED_CORES} core`);
  }
  if (latency) {
    console.log(`\nSearch latency by kind of query (1 connection):\n`);
    console.log(byKindRows(expected, latency, explained));
    console.log(
      `\nBy query (1 connection; SQL ms: EXPLAIN ANALYZE execution time of the repository's statement, median of ${o.explainRepeats}, both stages when the first finds nothing):\n`,
    );
    console.log(perQueryRows(expected, latency, explained));
  }
  for (const line of drift) console.log(`SQL and hub disagree: ${line}`);

  const ratio =
    detailHub && detailPlain
      ? detailHub.measurement.requestsPerSecond / detailPlain.measurement.requestsPerSecond
      : NaN;
  if (detailHub && detailPlain)
    console.log(
      `\ndetail: hub ${fixed(detailHub.measurement.requestsPerSecond, 0)} req/s, plain ${fixed(detailPlain.measurement.requestsPerSecond, 0)} req/s: ` +
        `hub / plain = ${fixed(ratio, 3)} (CPU per answer: plain / hub = ${fixed(detailPlain.serverMicrosPerAnswer / detailHub.serverMicrosPerAnswer, 3)})`,
    );

  const target = latency
    ? {
        p99Ms: latency.measurement.latencyMs.p99,
        verdict:
          latency.measurement.errorTotal > 0
            ? 'INVALID'
            : latency.measurement.latencyMs.p99 <= TARGET_P99_MS
              ? 'MET'
              : 'MISSED',
      }
    : { p99Ms: NaN, verdict: 'NOT RUN' };
  console.log(
    `\nTarget: search p99 ≤ ${TARGET_P99_MS} ms at 1 connection: ${target.verdict} (p99 ${fixed(target.p99Ms, 2)} ms)`,
  );
  if (latency) {
    const group = (name: string) => latency.measurement.byLabel[name] as (LatencyStats & { count: number }) | undefined;
    const count = (broad: boolean) => expected.filter((e) => e.matches > BROAD_MATCHES === broad).length;
    for (const [name, broad] of [
      ['narrow', false],
      ['broad', true],
    ] as const) {
      const stats = group(name);
      console.log(
        `  ${count(broad)} queries matching ${broad ? 'more than' : 'at most'} ${thousands(BROAD_MATCHES)} products: ` +
          `p50 ${fixed(stats?.p50 ?? NaN, 2)} ms, p99 ${fixed(stats?.p99 ?? NaN, 2)} ms (${thousands(stats?.count ?? 0)} answers)`,
      );
    }
  }
  for (const w of windows.filter((item) => item.profile))
    console.log(
      `\nCPU profile of the hub, ${w.name} at ${w.connections} connection(s) (${w.profile!.path}):\n${w.profile!.summary}`,
    );
  if (failures.length > 0) console.log(`\nFailures:\n${failures.map((f) => `  ${f}`).join('\n')}`);

  mkdirSync(dirname(o.out), { recursive: true });
  writeFileSync(
    o.out,
    JSON.stringify(
      {
        benchmark: 'commerce',
        at: new Date().toISOString(),
        machine,
        options: { ...o, databaseUrl: redactUrl(o.databaseUrl) },
        hub: hub ? { setup: hub.info.setup, load: hub.info.load } : undefined,
        queries: expected.map((e) => ({ ...e.query, matches: e.matches, ids: e.ids })),
        windows: windows.map((w) => ({ ...w, profile: w.profile?.path })),
        detailRatioHubOverPlain: ratio,
        target: { p99LimitMs: TARGET_P99_MS, ...target },
        explain: explained,
        drift,
        failures,
      },
      null,
      2,
    ),
  );
  console.log(`\nJSON: ${o.out}`);
  const wrong = windows.some((w) => w.measurement.errorTotal > 0 || w.measurement.warmup.errors > 0);
  process.exit(wrong || failures.length > 0 || drift.length > 0 ? 2 : 0);
}

/** `count` shop sessions, made as an agent makes one: POST …/session. */
async function createSessions(baseUrl: string, count: number): Promise<string[]> {
  const tokens: string[] = [];
  for (let i = 0; i < count; i++) {
    const response = await fetch(`${baseUrl}${SESSION_PATH}`, { method: 'POST' });
    const reply = (await response.json()) as { ok?: boolean; data?: { session_token?: unknown } };
    const token = reply.data?.session_token;
    if (response.status !== 201 || reply.ok !== true || typeof token !== 'string')
      throw new Error(`POST ${SESSION_PATH}: HTTP ${response.status} ${JSON.stringify(reply)}`);
    tokens.push(token);
  }
  return tokens;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
