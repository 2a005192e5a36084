import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ENVIRONMENT_VARIABLES } from '../../src/platform/config/environment';
import { Backend, BACKENDS, TargetName, TARGETS } from './plan';
import { ORCHESTRATED_VARIANT, pickList, Variant, VARIANTS } from './variants';

export const USAGE = `Usage: npm run bench:a2a-send -- [options]

  --duration <s>        seconds measured per target (default 10)
  --warmup <s>          seconds of unmeasured load before each measurement (default 2)
  --connections <list>  concurrent connections, e.g. 32 or 32,1 (default 32,1): throughput is
                        judged at the most (the servers saturated), the latency a hop adds at
                        the fewest (no queue); every value is shown
  --rounds <n>          run every target n times, interleaved; the tables show medians (default 1)
  --variants <list>     echo agents, any of ${VARIANTS.join(',')} (default all):
                        message = one Message; task = one completed task event; task-stream =
                        task, working, artifact, completed
  --targets <list>      any of ${TARGETS.join(',')} (default all); orchestrator
                        routes to the remote ${ORCHESTRATED_VARIANT} agent, so it needs --variants to include ${ORCHESTRATED_VARIANT}
  --backends <list>     the hub's backends, any of ${BACKENDS.join(',')} (default both, one hub process
                        each, measured side by side): real = PostgreSQL + Redis, embedded = PGlite
                        + the in-process store (npm start without DATABASE_URL and REDIS_URL)
  --database-url <url>  PostgreSQL admin URL for the real backend; its hub gets a fresh database,
                        dropped after (default postgres://postgres:postgres@127.0.0.1:5432/postgres)
  --redis-url <url>     Redis for the real backend (default redis://127.0.0.1:6379)
  --log-level <level>   the hubs' LOG_LEVEL (default silent)
  --hub-env NAME=VALUE  another setting for the hubs, e.g. WRITE_BEHIND_DELAY_MS=50 (repeatable;
                        only the variables the server reads, see .env.example)
  --hub-node-options <flags>
                        Node/V8 options for the hubs alone (their NODE_OPTIONS), e.g.
                        --hub-node-options=--max-semi-space-size=32 (default: none)
  --rate <req/s>        send at most this many requests per second in all (autocannon's overallRate),
                        so every cell runs at the same load: the hub's CPU per answer then compares
                        like with like (it falls as the rate rises and answers share system calls
                        and event-loop turns); the throughput ratios then say nothing (default: as
                        fast as the connections go)
  --profile             CPU-profile each target's server process during its first measured run
                        (written next to the results; slows the servers down: figures are marked)
  --out <file>          where to write the JSON (default bench/results/a2a-send-<timestamp>.json)
  --help

  --embedded-db and --no-redis are gone: --backends embedded runs the hub on PGlite and the
  in-process store.`;

export interface Options {
  durationSeconds: number;
  warmupSeconds: number;
  connections: number[];
  rounds: number;
  variants: Variant[];
  targets: TargetName[];
  backends: Backend[];
  databaseUrl: string;
  redisUrl: string;
  logLevel: string;
  /** Settings for the hubs beyond the benchmark's own (--hub-env). */
  hubEnv: Record<string, string>;
  /** NODE_OPTIONS for the hubs (--hub-node-options). */
  hubNodeOptions?: string;
  /** Requests per second in all, or undefined for as fast as the connections go (--rate). */
  rate?: number;
  profile: boolean;
  out: string;
}

export function parseOptions(projectRoot: string, stamp: string): Options {
  const { values } = parseArgs({
    options: {
      duration: { type: 'string', default: '10' },
      warmup: { type: 'string', default: '2' },
      connections: { type: 'string', default: '32,1' },
      rounds: { type: 'string', default: '1' },
      variants: { type: 'string', default: VARIANTS.join(',') },
      targets: { type: 'string', default: TARGETS.join(',') },
      backends: { type: 'string', default: BACKENDS.join(',') },
      'database-url': { type: 'string', default: 'postgres://postgres:postgres@127.0.0.1:5432/postgres' },
      'redis-url': { type: 'string', default: 'redis://127.0.0.1:6379' },
      'embedded-db': { type: 'boolean', default: false },
      'no-redis': { type: 'boolean', default: false },
      'log-level': { type: 'string', default: 'silent' },
      'hub-env': { type: 'string', multiple: true, default: [] },
      'hub-node-options': { type: 'string' },
      rate: { type: 'string' },
      profile: { type: 'boolean', default: false },
      out: { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  if (values['embedded-db'] || values['no-redis']) {
    throw new Error('--embedded-db and --no-redis are replaced by --backends embedded (PGlite + in-process store)');
  }
  const positive = (name: string, raw: string, min = 1) => {
    const n = Number(raw);
    if (!Number.isInteger(n) || n < min) throw new Error(`--${name} must be an integer ≥ ${min}, not ${raw}`);
    return n;
  };
  const variants = pickList('variant', values.variants, VARIANTS);
  let targets = pickList('target', values.targets, TARGETS);
  if (targets.includes('orchestrator') && !variants.includes(ORCHESTRATED_VARIANT)) {
    console.warn(
      `orchestrator skipped: it is routed to the remote ${ORCHESTRATED_VARIANT} agent, not among --variants`,
    );
    targets = targets.filter((t) => t !== 'orchestrator');
    if (!targets.length) throw new Error('nothing to measure');
  }
  return {
    durationSeconds: positive('duration', values.duration),
    warmupSeconds: positive('warmup', values.warmup, 0),
    connections: values.connections.split(',').map((c) => positive('connections', c.trim())),
    rounds: positive('rounds', values.rounds),
    variants,
    targets,
    backends: pickList('backend', values.backends, BACKENDS),
    databaseUrl: values['database-url'],
    redisUrl: values['redis-url'],
    logLevel: values['log-level'],
    hubEnv: parseHubEnv(values['hub-env']),
    hubNodeOptions: values['hub-node-options'],
    rate: values.rate === undefined ? undefined : positive('rate', values.rate),
    profile: values.profile,
    out: values.out ?? join(projectRoot, 'bench', 'results', `a2a-send-${stamp}.json`),
  };
}

/** `NAME=VALUE` pairs, each naming a variable the server reads. */
function parseHubEnv(pairs: string[]): Record<string, string> {
  const env: Record<string, string> = {};
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    const name = at > 0 ? pair.slice(0, at) : '';
    if (!ENVIRONMENT_VARIABLES.includes(name)) {
      throw new Error(`--hub-env ${pair}: not NAME=VALUE with a variable the server reads`);
    }
    env[name] = pair.slice(at + 1);
  }
  return env;
}
