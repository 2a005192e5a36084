/**
 * bench/orchestrate: the orchestrator's throughput and latency with the built-in router over 50
 * hosted agents, and the router's own cost per decision at 10, 100 and 1,000 agents.
 *   npm run bench:orchestrate [-- --help]
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { DefaultRouter } from '../../src/orchestration/router/default-router';
import { topicProfile } from '../a2a-send/hub';
import { latencyStats, measureWith, round } from '../a2a-send/load';
import { TargetProcess } from '../a2a-send/target-client';

const PROJECT_ROOT = join(__dirname, '..', '..');
const AGENT_COUNTS = [10, 100, 1000];
const TARGET_MS_AT_1000 = 2;

const USAGE = `npm run bench:orchestrate -- [options]
  --agents N            agents hosted for the throughput run (default 50)
  --duration S          seconds measured per concurrency (default 10)
  --warmup S            seconds of load before measuring (default 2)
  --connections LIST    concurrencies, comma-separated (default 32,1)
  --decisions N         router decisions timed per agent count (default 5000)
  --router-only         only the router's cost, no server
  --database-url URL    PostgreSQL admin URL (default postgres://postgres:postgres@127.0.0.1:5432/postgres)
  --embedded-db         use the embedded database (PGlite) instead
  --redis-url URL       Redis (default redis://127.0.0.1:6379)
  --no-redis            use the in-process key-value store instead
  --out FILE            JSON results (default bench/results/orchestrate-<time>.json)`;

function options() {
  const { values } = parseArgs({
    options: {
      agents: { type: 'string', default: '50' },
      duration: { type: 'string', default: '10' },
      warmup: { type: 'string', default: '2' },
      connections: { type: 'string', default: '32,1' },
      decisions: { type: 'string', default: '5000' },
      'router-only': { type: 'boolean', default: false },
      'database-url': { type: 'string', default: 'postgres://postgres:postgres@127.0.0.1:5432/postgres' },
      'embedded-db': { type: 'boolean', default: false },
      'redis-url': { type: 'string', default: 'redis://127.0.0.1:6379' },
      'no-redis': { type: 'boolean', default: false },
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
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  return {
    agents: int('agents', values.agents),
    durationSeconds: int('duration', values.duration),
    warmupSeconds: int('warmup', values.warmup, 0),
    connections: values.connections.split(',').map((c) => int('connections', c.trim())),
    decisions: int('decisions', values.decisions),
    routerOnly: values['router-only'],
    databaseUrl: values['embedded-db'] ? undefined : values['database-url'],
    redisUrl: values['no-redis'] ? undefined : values['redis-url'],
    out: values.out ?? join(PROJECT_ROOT, 'bench', 'results', `orchestrate-${stamp}.json`),
  };
}

/** Requests as users send them: one topic each, some with two intents, some matching nothing. */
function requestText(n: number, agents: number): string {
  const a = n % agents;
  const b = (n * 7 + 3) % agents;
  switch (n % 4) {
    case 0:
      return `tell me about topic${a} and then something on topic${b} please`;
    case 1:
      return 'what should I do this evening';
    default:
      return `could you help me with topic${a} right now`;
  }
}

/** The built-in router alone: build time and cost per decision, at each agent count. */
function routerCost(decisions: number) {
  return AGENT_COUNTS.map((count) => {
    const agents = Array.from({ length: count }, (_, i) => topicProfile(i));
    const builtAt = process.hrtime.bigint();
    const router = new DefaultRouter(agents);
    const buildMs = Number(process.hrtime.bigint() - builtAt) / 1e6;
    for (let i = 0; i < 500; i++) router.route({ text: requestText(i, count), multiAgent: true });
    const samples: number[] = [];
    let routed = 0;
    for (let i = 0; i < decisions; i++) {
      const text = requestText(i, count);
      const start = process.hrtime.bigint();
      const choice = router.route({ text, multiAgent: true });
      samples.push(Number(process.hrtime.bigint() - start) / 1e6);
      if (choice.agentId) routed++;
    }
    return { agents: count, buildMs: round(buildMs, 2), perDecisionMs: latencyStats(samples), routed, decisions };
  });
}

async function throughput(o: ReturnType<typeof options>) {
  const hub = await TargetProcess.start('hub', 'hub', {
    databaseUrl: o.databaseUrl,
    redisUrl: o.redisUrl,
    logLevel: 'silent',
    topicAgents: o.agents,
  });
  try {
    const results = [];
    for (const connections of o.connections) {
      const measured = await measureWith(
        {
          origin: hub.info.baseUrl,
          path: '/api/agents/orchestrator/v1',
          headers: { 'x-api-key': hub.info.apiKey! },
          rateLimited: true,
          // One topic per request, so the answer is that agent's echo of the text.
          text: (n) => `could you help me with topic${n % o.agents} #${n}`,
        },
        { connections, durationSeconds: o.durationSeconds, warmupSeconds: o.warmupSeconds },
      );
      results.push({ connections, ...measured });
    }
    return { setup: hub.info.setup, results };
  } finally {
    await hub.stop();
  }
}

async function main(): Promise<void> {
  const o = options();
  console.log(`Router cost per decision (built-in router, ${o.decisions} decisions per agent count)\n`);
  const cost = routerCost(o.decisions);
  console.log('agents   build ms   p50 ms   p99 ms   mean ms   routed');
  for (const c of cost) {
    console.log(
      `${String(c.agents).padStart(6)} ${String(c.buildMs).padStart(10)} ${c.perDecisionMs.p50.toFixed(3).padStart(8)} ` +
        `${c.perDecisionMs.p99.toFixed(3).padStart(8)} ${c.perDecisionMs.mean.toFixed(3).padStart(9)}   ${c.routed}/${c.decisions}`,
    );
  }
  const at100 = cost[1].perDecisionMs.mean;
  const at1000 = cost[2].perDecisionMs.mean;
  const growth = at1000 / at100;
  const meets = cost[2].perDecisionMs.p99 <= TARGET_MS_AT_1000;
  console.log(
    `\ngrowth 100 → 1,000 agents: ×${growth.toFixed(2)} (linear would be ×10): ${growth <= 10 ? 'PASS' : 'MISS'}` +
      `\np99 at 1,000 agents ≤ ${TARGET_MS_AT_1000} ms: ${cost[2].perDecisionMs.p99.toFixed(3)} ms: ${meets ? 'PASS' : 'MISS'}`,
  );

  let served: Awaited<ReturnType<typeof throughput>> | undefined;
  if (!o.routerOnly) {
    console.log(`\nThrough the orchestrator (POST /api/agents/orchestrator/v1, ${o.agents} local echo agents)\n`);
    served = await throughput(o);
    console.log('connections    req/s   p50 ms   p99 ms   errors');
    for (const r of served.results) {
      console.log(
        `${String(r.connections).padStart(11)} ${String(Math.round(r.requestsPerSecond)).padStart(8)} ` +
          `${r.latencyMs.p50.toFixed(2).padStart(8)} ${r.latencyMs.p99.toFixed(2).padStart(8)} ${String(r.errors.total).padStart(8)}`,
      );
      for (const sample of r.errorSamples) console.log(`  ${sample}`);
    }
  }
  mkdirSync(dirname(o.out), { recursive: true });
  writeFileSync(
    o.out,
    JSON.stringify(
      {
        at: new Date().toISOString(),
        node: process.version,
        cpus: cpus().length,
        options: o,
        routerCost: cost,
        served,
      },
      null,
      2,
    ),
  );
  console.log(`\nWritten to ${o.out}`);
  if (served?.results.some((r) => r.errors.total > 0)) process.exitCode = 2;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
