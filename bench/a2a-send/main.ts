/**
 * bench/a2a-send: A2A `message/send` (JSON-RPC, v0.3 wire format) against the SDK's own server,
 * the hub hosting the same echo agent, and the hub proxying to a remote echo server - one after
 * another, same load, every answer checked. See bench/README.md.
 *
 *   npm run bench:a2a-send -- [--duration 10] [--warmup 2] [--connections 32,1] [--rounds 1] ...
 */
import { execFileSync } from 'node:child_process';
import { cpus, totalmem } from 'node:os';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parseArgs } from 'node:util';
import { format, resolveConfig } from 'prettier';
import { LOCAL_ECHO_ID, REMOTE_ECHO_ID } from './hub';
import { cpuBetween, cpuSnapshot } from './cpu';
import { LoadTarget, measureWith, round } from './load';
import { formatSummary, summarizeFile } from './profile-summary';
import { buildReport, compare, RoundResult, summarizeRounds, TargetName, TARGETS } from './report';
import { TargetProcess } from './target-client';
import type { TargetStats } from './target-process';

const PROJECT_ROOT = join(__dirname, '..', '..');

const DESCRIPTIONS: Record<TargetName, string> = {
  reference: 'reference: SDK server',
  hub: `hub: /api/agents/${LOCAL_ECHO_ID}/v1`,
  remote: 'remote echo, direct',
  proxy: `proxy: hub → remote echo`,
};

const USAGE = `Usage: npm run bench:a2a-send -- [options]

  --duration <s>        seconds measured per target (default 10)
  --warmup <s>          seconds of unmeasured load before each measurement (default 2)
  --connections <list>  concurrent connections, e.g. 32 or 32,1 (default 32,1): throughput is
                        judged at the most (the servers saturated), the latency the proxy
                        adds at the fewest (no queue); every value is shown
  --rounds <n>          run every target n times, interleaved; the table shows medians (default 1)
  --targets <list>      any of reference,hub,remote,proxy (default all)
  --database-url <url>  PostgreSQL admin URL; the hub gets a fresh database on it, dropped after
                        (default postgres://postgres:postgres@127.0.0.1:5432/postgres)
  --embedded-db         use the embedded database (PGlite) instead
  --redis-url <url>     Redis for the hub's rate limiter and key-value store (default redis://127.0.0.1:6379)
  --no-redis            use the in-process rate limiter and key-value store instead
  --log-level <level>   the hub's LOG_LEVEL (default silent)
  --profile             CPU-profile each target's server process during its first measured run
                        (written next to the results; slows the servers down: figures are marked)
  --out <file>          where to write the JSON (default bench/results/a2a-send-<timestamp>.json)
  --help`;

interface Options {
  durationSeconds: number;
  warmupSeconds: number;
  connections: number[];
  rounds: number;
  targets: TargetName[];
  databaseUrl?: string;
  redisUrl?: string;
  logLevel: string;
  profile: boolean;
  out: string;
}

function parseOptions(stamp: string): Options {
  const { values } = parseArgs({
    options: {
      duration: { type: 'string', default: '10' },
      warmup: { type: 'string', default: '2' },
      connections: { type: 'string', default: '32,1' },
      rounds: { type: 'string', default: '1' },
      targets: { type: 'string', default: TARGETS.join(',') },
      'database-url': { type: 'string', default: 'postgres://postgres:postgres@127.0.0.1:5432/postgres' },
      'embedded-db': { type: 'boolean', default: false },
      'redis-url': { type: 'string', default: 'redis://127.0.0.1:6379' },
      'no-redis': { type: 'boolean', default: false },
      'log-level': { type: 'string', default: 'silent' },
      profile: { type: 'boolean', default: false },
      out: { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const positive = (name: string, raw: string, min = 1) => {
    const n = Number(raw);
    if (!Number.isInteger(n) || n < min) throw new Error(`--${name} must be an integer ≥ ${min}, not ${raw}`);
    return n;
  };
  const targets = values.targets.split(',').map((t) => t.trim());
  for (const t of targets) if (!TARGETS.includes(t as TargetName)) throw new Error(`unknown target ${t}`);
  return {
    durationSeconds: positive('duration', values.duration),
    warmupSeconds: positive('warmup', values.warmup, 0),
    connections: values.connections.split(',').map((c) => positive('connections', c.trim())),
    rounds: positive('rounds', values.rounds),
    targets: TARGETS.filter((t) => targets.includes(t)),
    databaseUrl: values['embedded-db'] ? undefined : values['database-url'],
    redisUrl: values['no-redis'] ? undefined : values['redis-url'],
    logLevel: values['log-level'],
    profile: values.profile,
    out: values.out ?? join(PROJECT_ROOT, 'bench', 'results', `a2a-send-${stamp}.json`),
  };
}

interface Servers {
  reference?: TargetProcess;
  remote?: TargetProcess;
  hub?: TargetProcess;
}

/** Boots every server the chosen targets need, before anything is measured. */
async function startServers(options: Options, servers: Servers): Promise<void> {
  const wants = (...names: TargetName[]) => names.some((n) => options.targets.includes(n));
  if (wants('reference')) servers.reference = await TargetProcess.start('reference echo server', 'echo');
  if (wants('remote', 'proxy')) servers.remote = await TargetProcess.start('remote echo server', 'echo');
  if (wants('hub', 'proxy')) {
    servers.hub = await TargetProcess.start('hub', 'hub', {
      databaseUrl: options.databaseUrl,
      redisUrl: options.redisUrl,
      logLevel: options.logLevel,
      remoteBaseUrl: wants('proxy') ? servers.remote!.info.baseUrl : undefined,
    });
  }
}

/** The load target, and the processes serving it: the one answering the client first. */
function loadTarget(name: TargetName, servers: Servers): { involved: TargetProcess[]; target: LoadTarget } {
  const hubTarget = (agentId: string) => {
    const hub = servers.hub!;
    return {
      involved: agentId === REMOTE_ECHO_ID ? [hub, servers.remote!] : [hub],
      target: {
        origin: hub.info.baseUrl,
        path: `/api/agents/${agentId}/v1`,
        headers: { 'x-api-key': hub.info.apiKey! },
        rateLimited: true,
      },
    };
  };
  const echoTarget = (server: TargetProcess) => ({
    involved: [server],
    target: { origin: server.info.baseUrl, path: '/v1', headers: {}, rateLimited: false },
  });
  switch (name) {
    case 'reference':
      return echoTarget(servers.reference!);
    case 'remote':
      return echoTarget(servers.remote!);
    case 'hub':
      return hubTarget(LOCAL_ECHO_ID);
    case 'proxy':
      return hubTarget(REMOTE_ECHO_ID);
  }
}

/** The commit measured, and whether src/ had uncommitted changes (others edit it too). */
function sourceVersion(): { commit: string; srcModified: boolean } | undefined {
  try {
    const git = (...args: string[]) => execFileSync('git', args, { cwd: PROJECT_ROOT, encoding: 'utf8' }).trim();
    return { commit: git('rev-parse', 'HEAD'), srcModified: git('status', '--porcelain', '--', 'src') !== '' };
  } catch {
    return undefined;
  }
}

function packageVersion(name: string): string {
  const path = join(PROJECT_ROOT, 'node_modules', ...name.split('/'), 'package.json');
  return (JSON.parse(readFileSync(path, 'utf8')) as { version: string }).version;
}

async function main(): Promise<void> {
  const startedAt = new Date();
  const source = sourceVersion();
  const stamp = startedAt
    .toISOString()
    .replace(/:/g, '-')
    .replace(/\.\d+Z$/, 'Z');
  const options = parseOptions(stamp);
  const servers: Servers = {};
  const stopAll = async () => {
    await Promise.all(Object.values(servers).map((s: TargetProcess) => s.stop().catch(() => undefined)));
  };
  process.once('SIGINT', () => {
    console.error('\nInterrupted: stopping the servers…');
    void stopAll().then(() => process.exit(130));
  });

  const cpu = cpus();
  console.log(
    `A2A message/send benchmark - ${startedAt.toISOString()} - ${cpu.length} × ${cpu[0]?.model.trim()}, node ${process.version}`,
  );
  console.log(
    `load: autocannon ${packageVersion('autocannon')}, ${options.connections.join(' and ')} connections, ` +
      `${options.durationSeconds} s after ${options.warmupSeconds} s warm-up, ${options.rounds} round(s); ` +
      `hub on ${options.databaseUrl ? 'PostgreSQL' : 'embedded PGlite'} + ${options.redisUrl ? 'Redis' : 'in-process KV'}`,
  );
  const profileDir = join(PROJECT_ROOT, 'bench', 'results', 'profiles');
  const profiles: {
    target: TargetName;
    connections: number;
    file: string;
    summary: ReturnType<typeof summarizeFile>;
  }[] = [];
  const measurements = new Map<string, RoundResult[]>();
  try {
    process.stdout.write('starting servers… ');
    await startServers(options, servers);
    console.log('ready');
    for (let roundNo = 1; roundNo <= options.rounds; roundNo++) {
      for (const connections of options.connections) {
        for (const name of options.targets) {
          const { involved, target } = loadTarget(name, servers);
          const profiled = options.profile && roundNo === 1 && connections === options.connections[0];
          const file = join(profileDir, `a2a-send-${stamp}-${name}-c${connections}.cpuprofile`);
          if (profiled) mkdirSync(profileDir, { recursive: true });
          process.stdout.write(`  round ${roundNo}, ${connections} conn, ${DESCRIPTIONS[name]}… `);
          let before: Awaited<ReturnType<typeof cpuSnapshot>> | undefined;
          let after: typeof before;
          const measured = await measureWith(
            target,
            { connections, durationSeconds: options.durationSeconds, warmupSeconds: options.warmupSeconds },
            {
              beforeMeasured: async () => {
                if (profiled) await involved[0].request({ type: 'profile-start' });
                before = await cpuSnapshot(involved);
              },
              afterMeasured: async () => {
                after = await cpuSnapshot(involved);
                if (profiled) await involved[0].request({ type: 'profile-stop', path: file });
              },
            },
          );
          const result: RoundResult = { ...measured, cpu: cpuBetween(before!, after!, measured.responses) };
          if (profiled)
            profiles.push({ target: name, connections, file, summary: summarizeFile(file, 25, result.responses) });
          const key = `${name}@${connections}`;
          measurements.set(key, [...(measurements.get(key) ?? []), result]);
          console.log(
            `${result.requestsPerSecond.toFixed(0)} req/s, p50 ${result.latencyMs.p50.toFixed(2)} ms, ` +
              `p99 ${result.latencyMs.p99.toFixed(2)} ms, ${result.cpu.servers[0].microsPerAnswer} µs CPU/answer, ` +
              `${result.errors.total + result.warmup.errors} errors`,
          );
          for (const sample of result.errorSamples) console.log(`    ${sample}`);
        }
      }
    }
    const remoteStats = servers.remote ? await servers.remote.request<TargetStats>({ type: 'stats' }) : undefined;
    const hubSetup = servers.hub?.info.setup;
    await stopAll();

    const rows = options.connections.flatMap((c) =>
      options.targets.map((t) => summarizeRounds(t, DESCRIPTIONS[t], c, measurements.get(`${t}@${c}`)!)),
    );
    const comparisons = options.connections.map((c) => compare(rows, c));
    const report = buildReport(rows, comparisons, options);
    console.log(`\n${report.text}`);
    for (const p of profiles) {
      console.log(
        `\nCPU profile of the ${DESCRIPTIONS[p.target]} server process, ${p.connections} connections (${relative(PROJECT_ROOT, p.file)}):`,
      );
      console.log(formatSummary(p.summary));
    }

    mkdirSync(join(options.out, '..'), { recursive: true });
    const json = {
      benchmark: 'a2a-send',
      date: startedAt.toISOString(),
      machine: {
        cpus: cpu.length,
        cpuModel: cpu[0]?.model.trim(),
        memoryGiB: round(totalmem() / 2 ** 30, 1),
        node: process.version,
        platform: `${process.platform} ${process.arch}`,
      },
      loadGenerator: {
        tool: `autocannon ${packageVersion('autocannon')}`,
        where: 'the benchmark process (autocannon API); every server runs in a child process of its own',
        request: 'POST JSON-RPC message/send, v0.3 wire format (no A2A-Version header), a new id and text per request',
      },
      source,
      versions: { '@a2a-js/sdk': packageVersion('@a2a-js/sdk'), autocannon: packageVersion('autocannon') },
      options: {
        ...options,
        databaseUrl: withoutPassword(options.databaseUrl),
        out: relative(PROJECT_ROOT, options.out),
      },
      hub: hubSetup,
      remoteEcho: remoteStats && {
        requestsByVersion: remoteStats.requestsByVersion,
        connectionsAccepted: remoteStats.connections,
      },
      profiled: options.profile,
      results: rows,
      comparisons,
      targets: report.verdicts,
      profiles: profiles.map((p) => ({ ...p, file: relative(PROJECT_ROOT, p.file) })),
    };
    // Formatted as the repository's Prettier would, so a results file never trips `npm run format:check`.
    const prettierConfig = await resolveConfig(options.out);
    writeFileSync(options.out, await format(JSON.stringify(json), { ...prettierConfig, filepath: options.out }));
    console.log(`\nResults: ${relative(process.cwd(), options.out)}`);
    if (rows.some((r) => r.errors > 0)) {
      // Not a missed target: wrong answers make the figures meaningless, which a script should notice.
      console.error('Some answers were not the echo (see errorSamples in the JSON): the figures are not valid.');
      process.exitCode = 2;
    }
  } finally {
    await stopAll();
  }
}

function withoutPassword(url: string | undefined): string | undefined {
  if (!url) return url;
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '***';
  return parsed.toString();
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exitCode = 1;
});
