/**
 * bench/task-tree: the task-tree execution engine on PostgreSQL. For each tree size (default
 * 1,000, 10,000 and 50,000 tasks, all `noop`, fan-out/fan-in with dependencies: see tree.ts) and
 * each TASK_CONCURRENCY: the time to create the tree (tasks.create), the time from tasks.execute
 * until the root has completed (the `final` event of the SSE stream, or tasks.get polling), and
 * the scheduling overhead per task (execution wall time / tasks: noop does no work).
 *   npm run bench:task-tree [-- --help]
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { Client as PgClient } from 'pg';
import { formatSummary, summarizeFile } from '../a2a-send/profile-summary';
import { ExecuteOutcome, PollOutcome, StreamOutcome, TaskClient } from './client';
import { cpuBetween, CpuSample, sampleCpu, waitForQuiet } from './cpu';
import type { ServerStats } from './server';
import { ServerProcess } from './server-client';
import { buildTree, shapeOf, TreeShape } from './tree';
import { redactUrl } from '../../src/platform/logging/redact-url';
import { PROJECT_ROOT } from '../../src/paths';
import { DEFAULT_DATABASE_URL, DEFAULT_REDIS_URL } from '../support/in-process-hub';

/** Targets: scheduling overhead per task, and how much per-task cost may grow from the smallest to the largest tree. */
const TARGET_OVERHEAD_MS = 1;
const LINEAR_RATIO_LIMIT = 1.5;
/** Cores other programs may use during an execution before the run is marked disturbed. */
const DISTURBED_CORES = 0.3;
const QUIET_WAIT_MAX_MS = 180_000;

const USAGE = `npm run bench:task-tree -- [options]
  --sizes LIST          tree sizes in tasks, comma-separated (default 1000,10000,50000)
  --concurrency LIST    TASK_CONCURRENCY values, comma-separated; each gets a fresh server and
                        database (default 10,50)
  --group N             workers per join task (default 100)
  --wait MODE           stream: tasks.execute with use_streaming, until the final event (default);
                        poll: tasks.get on the root every --poll-ms
  --poll-ms N           polling interval (default 20)
  --rounds N            each size N times per concurrency; medians reported (default 1)
  --retries N           run a tree again (a new one) when other programs disturbed it, up to N
                        times (default 2); the disturbed run stays in the JSON, not in the table
  --warmup N            tasks in an unmeasured tree run first on each server (default 1000; 0: none)
  --pool-size N         DATABASE_POOL_SIZE (default: the app's, 10)
  --timeout S           give up on one tree after S seconds (default 900)
  --database-url URL    PostgreSQL admin URL; a fresh database is made on it per server and dropped
                        after (default: $DATABASE_URL, else ${DEFAULT_DATABASE_URL})
  --redis-url URL       Redis (default: $REDIS_URL, else ${DEFAULT_REDIS_URL})
  --no-redis            the in-process event bus instead of Redis
  --profile             CPU-profile the server while it creates and while it executes the largest
                        tree (first round); profiles slow the server, so those figures are not
                        for comparison
  --log-level LEVEL     the server's LOG_LEVEL (default silent)
  --no-quiet-wait       start each tree at once (by default the benchmark first waits, up to
                        ${QUIET_WAIT_MAX_MS / 1000} s, for other programs to use under ${DISTURBED_CORES} core)
  --out FILE            JSON results (default bench/results/task-tree-<time>.json)`;

function options() {
  const { values } = parseArgs({
    options: {
      sizes: { type: 'string', default: '1000,10000,50000' },
      concurrency: { type: 'string', default: '10,50' },
      group: { type: 'string', default: '100' },
      wait: { type: 'string', default: 'stream' },
      'poll-ms': { type: 'string', default: '20' },
      rounds: { type: 'string', default: '1' },
      retries: { type: 'string', default: '2' },
      warmup: { type: 'string', default: '1000' },
      'pool-size': { type: 'string' },
      timeout: { type: 'string', default: '900' },
      'database-url': { type: 'string', default: process.env.DATABASE_URL || DEFAULT_DATABASE_URL },
      'redis-url': { type: 'string', default: process.env.REDIS_URL || DEFAULT_REDIS_URL },
      'no-redis': { type: 'boolean', default: false },
      profile: { type: 'boolean', default: false },
      'log-level': { type: 'string', default: 'silent' },
      'no-quiet-wait': { type: 'boolean', default: false },
      out: { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const int = (name: string, raw: string, min = 1) => {
    const n = Number(raw);
    if (!Number.isInteger(n) || n < min) throw new Error(`--${name} must be an integer ≥ ${min}, not ${raw}`);
    return n;
  };
  const list = (name: string, raw: string) => raw.split(',').map((item) => int(name, item.trim()));
  if (values.wait !== 'stream' && values.wait !== 'poll')
    throw new Error(`--wait must be stream or poll, not ${values.wait}`);
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  return {
    sizes: list('sizes', values.sizes).sort((a, b) => a - b),
    concurrency: list('concurrency', values.concurrency),
    group: int('group', values.group),
    wait: values.wait,
    pollMs: int('poll-ms', values['poll-ms']),
    rounds: int('rounds', values.rounds),
    retries: int('retries', values.retries, 0),
    warmup: int('warmup', values.warmup, 0),
    poolSize: values['pool-size'] === undefined ? undefined : int('pool-size', values['pool-size']),
    timeoutMs: int('timeout', values.timeout) * 1000,
    databaseUrl: values['database-url'],
    redisUrl: values['no-redis'] ? undefined : values['redis-url'],
    profile: values.profile,
    logLevel: values['log-level'],
    quietWait: !values['no-quiet-wait'],
    out: values.out ?? join(PROJECT_ROOT, 'bench', 'results', `task-tree-${stamp}.json`),
  };
}

type Options = ReturnType<typeof options>;

interface Snapshot {
  at: number;
  server: ServerStats;
  cpu: CpuSample;
}

async function snapshot(server: ServerProcess, reset = false): Promise<Snapshot> {
  const stats = await server.request<ServerStats>({ type: 'stats', reset });
  return { at: performance.now(), server: stats, cpu: sampleCpu(server.pid, databaseOf(server)) };
}

function databaseOf(server: ServerProcess): string {
  return new URL(server.info.databaseUrl).pathname.slice(1);
}

/** CPU between two snapshots (see cpu.ts), per task, and the server's peak RSS. */
function phase(a: Snapshot, b: Snapshot, tasks: number) {
  const shares = cpuBetween(a.cpu, b.cpu);
  return {
    ...shares,
    serverMicrosPerTask: (shares.serverMs * 1000) / tasks,
    pgMicrosPerTask: (shares.pgMs * 1000) / tasks,
    redisMicrosPerTask: (shares.redisMs * 1000) / tasks,
    peakRssMb: b.server.peakRssBytes / 2 ** 20,
  };
}

interface Check {
  total: number;
  completed: number;
  /** Dependencies that had not completed when their dependent started. */
  dependencyViolations: number;
  /** Children that had not completed when their parent started. */
  parentViolations: number;
  firstStart: Date | null;
  lastDone: Date | null;
  rootDone: Date | null;
  /** Sum over tasks of (completed_at - started_at), ms: each task's own start→complete time. */
  busyMs: number;
}

/** What the database says about the tree once the root has finished. */
async function check(databaseUrl: string, rootId: string): Promise<Check> {
  const pg = new PgClient({ connectionString: databaseUrl });
  await pg.connect();
  try {
    const { rows } = await pg.query(
      `SELECT count(*)::int AS total, count(*) FILTER (WHERE status = 'completed')::int AS completed,
              min(started_at) AS first_start, max(completed_at) AS last_done,
              max(completed_at) FILTER (WHERE id = $1) AS root_done,
              coalesce(sum(extract(epoch FROM completed_at - started_at)), 0) * 1000 AS busy_ms
         FROM tasks WHERE root_id = $1`,
      [rootId],
    );
    const dependencies = await pg.query(
      `SELECT count(*)::int AS n FROM tasks t CROSS JOIN LATERAL jsonb_array_elements(t.dependencies) d
         JOIN tasks u ON u.id = (d->>'id')::uuid
        WHERE t.root_id = $1 AND (u.completed_at IS NULL OR t.started_at IS NULL OR u.completed_at > t.started_at)`,
      [rootId],
    );
    const parents = await pg.query(
      `SELECT count(*)::int AS n FROM tasks c JOIN tasks p ON p.id = c.parent_id
        WHERE c.root_id = $1 AND (c.completed_at IS NULL OR p.started_at IS NULL OR c.completed_at > p.started_at)`,
      [rootId],
    );
    const r = rows[0];
    return {
      total: r.total,
      completed: r.completed,
      dependencyViolations: dependencies.rows[0].n,
      parentViolations: parents.rows[0].n,
      firstStart: r.first_start,
      lastDone: r.last_done,
      rootDone: r.root_done,
      busyMs: Number(r.busy_ms),
    };
  } finally {
    await pg.end();
  }
}

interface RunResult {
  concurrency: number;
  size: number;
  round: number;
  shape: TreeShape;
  bodyBytes: number;
  buildMs: number;
  createMs: number;
  /** tasks.execute answered (the stream's first frame, or the JSON reply). */
  executeAckMs: number;
  /** tasks.execute sent → first task started (database clock). */
  firstStartMs: number;
  /** tasks.execute sent → root completed, as the client saw it (final event / poll). */
  executionMs: number;
  /** first task started → root completed (database timestamps). */
  engineSpanMs: number;
  totalMs: number;
  overheadMsPerTask: number;
  tasksPerSecond: number;
  /** Mean tasks in flight (Σ start→complete / span) and mean start→complete per task. */
  meanInFlight: number;
  meanTaskMs: number;
  create: ReturnType<typeof phase>;
  execution: ReturnType<typeof phase>;
  /** Other programs used more than DISTURBED_CORES during the execution. */
  disturbed: boolean;
  /** Disturbed, and run again: left out of the summary. */
  superseded?: boolean;
  /** Waited this long for other programs to go quiet before the tree. */
  quietWaitMs: number;
  events?: Record<string, number>;
  polls?: number;
  check: Check;
  valid: boolean;
  problems: string[];
  /** CPU profiles of the server (--profile): tasks.create, and the execution. */
  profiles: { create?: string; execution?: string };
}

async function runTree(
  o: Options,
  server: ServerProcess,
  client: TaskClient,
  size: number,
  concurrency: number,
  round: number,
  profile: boolean,
): Promise<RunResult> {
  const shape = shapeOf(size, o.group);
  const quiet = o.quietWait
    ? await waitForQuiet(server.pid, databaseOf(server), DISTURBED_CORES, QUIET_WAIT_MAX_MS)
    : { waitedMs: 0, foreign: NaN };
  if (quiet.waitedMs > 1500)
    console.log(
      `  (waited ${fixed(quiet.waitedMs / 1000, 0)} s for other programs to go quiet; foreign load now ${fixed(quiet.foreign, 2)} cores)`,
    );
  const built = performance.now();
  const body = client.body(
    'tasks.create',
    buildTree(shape, `${concurrency}-${size}-${round}-${randomBytes(3).toString('hex')}`),
  );
  const buildMs = performance.now() - built;

  const profileTo = (phase: string) =>
    join(dirname(o.out), 'profiles', `task-tree-c${concurrency}-n${size}-${phase}-${Date.now()}.cpuprofile`);
  const profiles: RunResult['profiles'] = {};
  if (profile) {
    mkdirSync(join(dirname(o.out), 'profiles'), { recursive: true });
    await server.request({ type: 'profile-start' });
  }
  const s0 = await snapshot(server, true);
  const createStart = performance.now();
  const created = await client.send<{ id: string; tasks: unknown[] }>(body);
  const createMs = performance.now() - createStart;
  const s1 = await snapshot(server, true);
  if (profile) await server.request({ type: 'profile-stop', path: (profiles.create = profileTo('create')) });
  if (created.tasks.length !== size) throw new Error(`tasks.create made ${created.tasks.length} tasks, not ${size}`);
  await new Promise((resolve) => setTimeout(resolve, 500)); // let the create's garbage and writes settle

  if (profile) await server.request({ type: 'profile-start' });
  const s2 = await snapshot(server, true);
  const sentAtWall = Date.now();
  const sentAt = performance.now();
  const outcome: ExecuteOutcome =
    o.wait === 'stream'
      ? await client.executeStreaming(created.id, o.timeoutMs)
      : await client.executePolling(created.id, o.pollMs, o.timeoutMs);
  const s3 = await snapshot(server, true);
  if (profile) await server.request({ type: 'profile-stop', path: (profiles.execution = profileTo('execution')) });

  const checked = await check(server.info.databaseUrl, created.id);
  const problems: string[] = [];
  if (outcome.finalStatus !== 'completed')
    problems.push(`root ${outcome.finalStatus}: ${JSON.stringify(outcome.finalError)}`);
  if (checked.total !== size) problems.push(`${checked.total} tasks stored, not ${size}`);
  if (checked.completed !== size) problems.push(`${size - checked.completed} tasks not completed`);
  if (checked.dependencyViolations > 0)
    problems.push(`${checked.dependencyViolations} tasks started before a dependency completed`);
  if (checked.parentViolations > 0)
    problems.push(`${checked.parentViolations} parents started before a child completed`);
  const events = (outcome as StreamOutcome).events;
  if (events) {
    const seen = (events.task_status_update ?? 0) + (events.task_completed ?? 0);
    if (seen !== 2 * size) problems.push(`the stream carried ${seen} task events, not ${2 * size}`);
  }

  const executionMs = outcome.finalAt - sentAt;
  const engineSpanMs =
    checked.firstStart && checked.rootDone ? checked.rootDone.getTime() - checked.firstStart.getTime() : NaN;
  const create = phase(s0, s1, size);
  const execution = phase(s2, s3, size);
  return {
    concurrency,
    size,
    round,
    shape,
    bodyBytes: Buffer.byteLength(body),
    buildMs,
    createMs,
    executeAckMs: outcome.acknowledgedAt - sentAt,
    firstStartMs: checked.firstStart ? checked.firstStart.getTime() - sentAtWall : NaN,
    executionMs,
    engineSpanMs,
    totalMs: createMs + executionMs,
    overheadMsPerTask: executionMs / size,
    tasksPerSecond: (size * 1000) / executionMs,
    meanInFlight: checked.busyMs / engineSpanMs,
    meanTaskMs: checked.busyMs / size,
    create,
    execution,
    disturbed: execution.cores.foreign > DISTURBED_CORES,
    quietWaitMs: quiet.waitedMs,
    events,
    polls: (outcome as PollOutcome).polls,
    check: checked,
    valid: problems.length === 0,
    problems,
    profiles,
  };
}

function median(values: number[]): number {
  const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

const fixed = (value: number, digits: number) => (Number.isFinite(value) ? value.toFixed(digits) : '–');
const thousands = (n: number) => n.toLocaleString('en-US').replace(/,/g, ' ');

/** One row per concurrency and size: medians over the rounds that were valid. */
function summaryRows(results: RunResult[]) {
  const keys = [...new Set(results.map((r) => `${r.concurrency}:${r.size}`))];
  return keys.map((key) => {
    const [concurrency, size] = key.split(':').map(Number);
    const runs = results.filter((r) => r.concurrency === concurrency && r.size === size && r.valid && !r.superseded);
    const m = (pick: (r: RunResult) => number) => median(runs.map(pick));
    return {
      concurrency,
      size,
      rounds: runs.length,
      createS: m((r) => r.createMs) / 1000,
      createMicrosPerTask: (m((r) => r.createMs) * 1000) / size,
      executeAckMs: m((r) => r.executeAckMs),
      firstStartMs: m((r) => r.firstStartMs),
      executionS: m((r) => r.executionMs) / 1000,
      totalS: m((r) => r.totalMs) / 1000,
      overheadMsPerTask: m((r) => r.overheadMsPerTask),
      tasksPerSecond: m((r) => r.tasksPerSecond),
      meanInFlight: m((r) => r.meanInFlight),
      meanTaskMs: m((r) => r.meanTaskMs),
      serverMicrosPerTask: m((r) => r.execution.serverMicrosPerTask),
      pgMicrosPerTask: m((r) => r.execution.pgMicrosPerTask),
      redisMicrosPerTask: m((r) => r.execution.redisMicrosPerTask),
      cores: {
        server: m((r) => r.execution.cores.server),
        pg: m((r) => r.execution.cores.pg),
        redis: m((r) => r.execution.cores.redis),
        bench: m((r) => r.execution.cores.bench),
        foreign: m((r) => r.execution.cores.foreign),
      },
      disturbed: runs.filter((r) => r.disturbed).length,
      peakRssMb: Math.max(...runs.map((r) => Math.max(r.create.peakRssMb, r.execution.peakRssMb))),
    };
  });
}

function printTable(rows: ReturnType<typeof summaryRows>): void {
  const header = [
    'conc.',
    'tasks',
    'create s',
    'µs/task',
    'exec ack ms',
    '1st start ms',
    'execution s',
    'total s',
    'overhead ms/task',
    'tasks/s',
    'in flight',
    'task ms',
    'CPU µs/task srv/pg',
    'cores srv/pg/redis/bench/foreign',
    'peak RSS MB',
  ];
  const lines = rows.map((r) => [
    String(r.concurrency),
    thousands(r.size),
    fixed(r.createS, 2),
    fixed(r.createMicrosPerTask, 0),
    fixed(r.executeAckMs, 0),
    fixed(r.firstStartMs, 0),
    fixed(r.executionS, 2),
    fixed(r.totalS, 2),
    fixed(r.overheadMsPerTask, 3),
    fixed(r.tasksPerSecond, 0),
    fixed(r.meanInFlight, 1),
    fixed(r.meanTaskMs, 2),
    `${fixed(r.serverMicrosPerTask, 0)}/${fixed(r.pgMicrosPerTask, 0)}`,
    `${[r.cores.server, r.cores.pg, r.cores.redis, r.cores.bench, r.cores.foreign].map((c) => fixed(c, 2)).join('/')}${r.disturbed ? ' !' : ''}`,
    fixed(r.peakRssMb, 0),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const format = (cells: string[]) => cells.map((c, i) => c.padStart(widths[i])).join('  ');
  console.log(format(header));
  for (const line of lines) console.log(format(line));
}

function judge(rows: ReturnType<typeof summaryRows>, sizes: number[]) {
  const verdicts = [];
  for (const concurrency of [...new Set(rows.map((r) => r.concurrency))]) {
    const mine = rows.filter((r) => r.concurrency === concurrency && r.rounds > 0);
    if (mine.length === 0) {
      verdicts.push({ concurrency, overhead: 'NOT RUN', linear: 'NOT RUN', detail: 'no valid run' });
      continue;
    }
    const worst = mine.reduce((a, b) => (b.overheadMsPerTask > a.overheadMsPerTask ? b : a));
    const smallest = mine[0];
    const largest = mine[mine.length - 1];
    const ratio = largest.overheadMsPerTask / smallest.overheadMsPerTask;
    const steps = mine
      .slice(1)
      .map(
        (r, i) =>
          `${thousands(mine[i].size)}→${thousands(r.size)} ×${fixed(r.overheadMsPerTask / mine[i].overheadMsPerTask, 2)}`,
      );
    const complete = mine.length === sizes.length;
    verdicts.push({
      concurrency,
      overhead: worst.overheadMsPerTask <= TARGET_OVERHEAD_MS ? 'PASS' : 'MISS',
      overheadDetail: `worst ${fixed(worst.overheadMsPerTask, 3)} ms/task at ${thousands(worst.size)} tasks`,
      ratio,
      linear: mine.length < 2 ? 'NOT RUN' : ratio <= LINEAR_RATIO_LIMIT ? 'PASS' : 'MISS',
      linearDetail:
        mine.length < 2
          ? 'needs two sizes'
          : `per-task overhead ${thousands(largest.size)} / ${thousands(smallest.size)} = ×${fixed(ratio, 2)} (${steps.join(', ')})${complete ? '' : '; some sizes failed'}`,
      createRatio: largest.createMicrosPerTask / smallest.createMicrosPerTask,
    });
  }
  return verdicts;
}

async function main(): Promise<void> {
  const o = options();
  const machine = `${cpus().length} × ${cpus()[0]?.model.trim() ?? '?'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
  console.log(`Task-tree engine benchmark: ${machine}`);
  console.log(
    `sizes ${o.sizes.map(thousands).join(', ')}; TASK_CONCURRENCY ${o.concurrency.join(', ')}; groups of ${o.group}; ` +
      `wait: ${o.wait === 'stream' ? 'SSE final event' : `tasks.get every ${o.pollMs} ms`}; ${o.rounds} round(s)`,
  );
  console.log(
    `PostgreSQL ${redactUrl(o.databaseUrl)} (fresh database per server); ${o.redisUrl ? `Redis ${o.redisUrl}` : 'in-process event bus'}\n`,
  );

  const results: RunResult[] = [];
  const failures: { concurrency: number; size?: number; round?: number; error: string }[] = [];
  const profiles: { concurrency: number; size: number; phase: string; path: string; summary: string }[] = [];
  const setups: Record<number, unknown> = {};
  for (const concurrency of o.concurrency) {
    let server: ServerProcess | undefined;
    try {
      server = await ServerProcess.start(
        { concurrency, poolSize: o.poolSize, logLevel: o.logLevel, maxBodyBytes: 64 * 2 ** 20 },
        { DATABASE_URL: o.databaseUrl, REDIS_URL: o.redisUrl },
      );
      setups[concurrency] = server.info.setup;
      const client = new TaskClient(server.info.baseUrl, server.info.apiKey);
      if (o.warmup > 0) {
        const warm = await runTree(o, server, client, o.warmup, concurrency, 0, false);
        console.log(
          `[TASK_CONCURRENCY ${concurrency}] warm-up ${thousands(o.warmup)} tasks: ${fixed(warm.executionMs / 1000, 2)} s` +
            `${warm.valid ? '' : ` (INVALID: ${warm.problems.join('; ')})`}`,
        );
      }
      for (let round = 1; round <= o.rounds; round++) {
        for (const size of o.sizes) {
          const profile = o.profile && round === 1 && size === o.sizes[o.sizes.length - 1];
          // A run other programs disturbed is done again (a new tree), up to --retries times.
          for (let attempt = 0; attempt <= o.retries; attempt++) {
            try {
              const result = await runTree(o, server, client, size, concurrency, round, profile && attempt === 0);
              result.superseded = false;
              results.push(result);
              console.log(
                `[TASK_CONCURRENCY ${concurrency}] ${thousands(size)} tasks, round ${round}: create ${fixed(result.createMs / 1000, 2)} s, ` +
                  `execution ${fixed(result.executionMs / 1000, 2)} s, ${fixed(result.overheadMsPerTask, 3)} ms/task` +
                  `${result.disturbed ? ` (DISTURBED: other programs used ${fixed(result.execution.cores.foreign, 2)} cores)` : ''}` +
                  `${result.valid ? '' : `  INVALID: ${result.problems.join('; ')}`}`,
              );
              for (const [phase, path] of Object.entries(result.profiles)) {
                const summary = formatSummary(summarizeFile(path, 15, size)).replace(/µs\/answer/g, 'µs/task');
                profiles.push({ concurrency, size, phase, path, summary });
              }
              await new Promise((resolve) => setTimeout(resolve, 1000));
              if (!result.disturbed || !result.valid || attempt === o.retries) break;
              result.superseded = true;
            } catch (error) {
              const message = error instanceof Error ? error.message : String(error);
              failures.push({ concurrency, size, round, error: message });
              console.log(
                `[TASK_CONCURRENCY ${concurrency}] ${thousands(size)} tasks, round ${round}: FAILED: ${message}`,
              );
              break;
            }
          }
        }
      }
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      failures.push({ concurrency, error: message });
      console.log(`[TASK_CONCURRENCY ${concurrency}] FAILED: ${message}`);
    } finally {
      await server?.stop();
    }
  }

  const rows = summaryRows(results);
  console.log(`\nResults${o.rounds > 1 ? ` (medians of ${o.rounds} rounds)` : ''}:\n`);
  printTable(rows);
  console.log(`
  create s          tasks.create, request sent → answer (JSON body ${thousands(Math.round((results.at(-1)?.bodyBytes ?? 0) / 1024))} KiB for the last tree)
  exec ack ms       tasks.execute sent → its answer (the stream's first frame)
  1st start ms      tasks.execute sent → the first task started (started_at in the database)
  execution s       tasks.execute sent → root completed, as the client saw it (${o.wait === 'stream' ? 'the final SSE event' : `tasks.get every ${o.pollMs} ms`})
  overhead ms/task  execution / tasks (noop does no work: all of it is the engine's)
  in flight         mean tasks between start and completion (Σ completed_at − started_at / span)
  task ms           mean started_at → completed_at of one task (two fenced UPDATEs and the events)
  CPU µs/task       CPU time during the execution / tasks: the server process, and PostgreSQL (the
                    run's database's backends plus the WAL writer, checkpointer, ...)
  cores             cores used during the execution by the server, PostgreSQL, Redis, this
                    benchmark (reading the event stream) and everything else (other programs, the
                    kernel); "!" marks rows where other programs used more than ${DISTURBED_CORES} core`);

  const verdicts = judge(rows, o.sizes);
  console.log('\nTargets:');
  for (const v of verdicts) {
    console.log(
      `  TASK_CONCURRENCY ${v.concurrency}: overhead ≤ ${TARGET_OVERHEAD_MS} ms/task: ${v.overhead} (${v.overheadDetail ?? v.detail})`,
    );
    console.log(
      `  TASK_CONCURRENCY ${v.concurrency}: linear growth (per-task ratio ≤ ${LINEAR_RATIO_LIMIT}): ${v.linear} (${v.linearDetail ?? v.detail})`,
    );
  }
  for (const p of profiles)
    console.log(
      `\nCPU profile of the server, ${p.phase}, TASK_CONCURRENCY ${p.concurrency}, ${thousands(p.size)} tasks (${p.path}):\n${p.summary}`,
    );
  if (failures.length > 0) {
    console.log('\nFailures:');
    for (const f of failures)
      console.log(`  TASK_CONCURRENCY ${f.concurrency}${f.size ? `, ${thousands(f.size)} tasks` : ''}: ${f.error}`);
  }

  mkdirSync(dirname(o.out), { recursive: true });
  writeFileSync(
    o.out,
    JSON.stringify(
      {
        benchmark: 'task-tree',
        at: new Date().toISOString(),
        machine,
        options: { ...o, databaseUrl: redactUrl(o.databaseUrl) },
        setups,
        results,
        summary: rows,
        targets: verdicts,
        failures,
        profiles: profiles.map((p) => p.path),
      },
      null,
      2,
    ),
  );
  console.log(`\nJSON: ${o.out}`);
  const invalid = results.some((r) => !r.valid) || failures.length > 0;
  process.exit(invalid ? 2 : 0);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
