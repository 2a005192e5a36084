/**
 * bench/a2a-send: A2A `message/send` (JSON-RPC, v0.3 wire format) to echo agents answering with a
 * Message, a Task, or a streamed Task - on the SDK's own server, hosted in the hub, called
 * directly on a remote server, through the hub's proxy, and through the orchestrator - with the
 * hub on PostgreSQL + Redis and on the embedded defaults, side by side. One cell after another,
 * same load, every answer checked. See bench/README.md.
 *
 *   npm run bench:a2a-send -- [--duration 10] [--warmup 2] [--connections 32,1] [--rounds 1] ...
 */
import { execFileSync } from 'node:child_process';
import { cpus, totalmem } from 'node:os';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { format, resolveConfig } from 'prettier';
import { comparisons, formatComparisons } from './comparisons';
import { round } from './load';
import { CellProfile, measureCell, progressLine } from './measure-cell';
import { Options, parseOptions } from './options';
import { BACKEND_LABELS, cellKey, cellsOf, describe, ORCHESTRATOR_TEXT_EXAMPLE } from './plan';
import { formatSummary } from './profile-summary';
import { formatTables, RoundResult, summarizeRounds } from './report';
import { Servers, settle, startServers, stopServers } from './servers';
import { formatVerdicts, judge } from './targets';
import type { TargetStats } from './target-process';

const PROJECT_ROOT = join(__dirname, '..', '..');

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
  const options = parseOptions(PROJECT_ROOT, stamp);
  const servers: Servers = { hubs: {} };
  process.once('SIGINT', () => {
    console.error('\nInterrupted: stopping the servers…');
    void stopServers(servers).then(() => process.exit(130));
  });

  const cpu = cpus();
  const cells = cellsOf(options.targets, options.variants, options.backends);
  console.log(
    `A2A message/send benchmark - ${startedAt.toISOString()} - ${cpu.length} × ${cpu[0]?.model.trim()}, node ${process.version}`,
  );
  console.log(
    `load: autocannon ${packageVersion('autocannon')}, ${options.connections.join(' and ')} connections, ` +
      `${options.durationSeconds} s after ${options.warmupSeconds} s warm-up, ${options.rounds} round(s), ` +
      (options.rate ? `at most ${options.rate} req/s in all, ` : '') +
      `${cells.length} cells; variants ${options.variants.join(', ')}; hub backends: ` +
      options.backends.map((b) => `${b} = ${BACKEND_LABELS[b]}`).join(', ') +
      (options.hubNodeOptions ? `; hub NODE_OPTIONS ${options.hubNodeOptions}` : ''),
  );
  const profileDir = join(PROJECT_ROOT, 'bench', 'results', 'profiles');
  const profiles: CellProfile[] = [];
  const measurements = new Map<string, RoundResult[]>();
  const measurementKey = (key: string, connections: number) => `${key} c${connections}`;
  try {
    process.stdout.write('starting servers… ');
    await startServers(options, servers);
    const booting = Date.now();
    await settle(servers);
    console.log(`ready (idle after ${((Date.now() - booting) / 1000).toFixed(1)} s more)`);
    for (let roundNo = 1; roundNo <= options.rounds; roundNo++) {
      for (const connections of options.connections) {
        for (const cell of cells) {
          const key = cellKey(cell);
          const profiled = options.profile && roundNo === 1 && connections === options.connections[0];
          const file = join(profileDir, `a2a-send-${stamp}-${key.replace(/[/@]/g, '-')}-c${connections}.cpuprofile`);
          if (profiled) mkdirSync(profileDir, { recursive: true });
          process.stdout.write(`  round ${roundNo}, ${connections} conn, ${cell.variant}: ${describe(cell)}… `);
          const { result, profile } = await measureCell(
            cell,
            connections,
            servers,
            options,
            profiled ? file : undefined,
          );
          if (profile) profiles.push({ cell: key, connections, file, summary: profile });
          measurements.set(measurementKey(key, connections), [
            ...(measurements.get(measurementKey(key, connections)) ?? []),
            result,
          ]);
          console.log(progressLine(result));
          for (const sample of result.errorSamples) console.log(`    ${sample}`);
        }
      }
    }
    const remoteStats = servers.remote ? await servers.remote.request<TargetStats>({ type: 'stats' }) : undefined;
    const hubs = Object.fromEntries(Object.entries(servers.hubs).map(([b, hub]) => [b, hub.info.setup]));
    await stopServers(servers);

    const rows = options.connections.flatMap((c) =>
      cells.map((cell) => summarizeRounds(cell, c, measurements.get(measurementKey(cellKey(cell), c))!)),
    );
    const pairs = comparisons(rows, options.connections, options.variants, options.backends);
    const verdicts = judge(rows, options.connections, options.backends);
    console.log(`\n${formatTables(rows, options)}`);
    if (pairs.length) console.log(`${formatComparisons(pairs)}\n`);
    console.log(formatVerdicts(verdicts));
    for (const p of profiles) {
      console.log(
        `\nCPU profile of ${p.cell}'s server process, ${p.connections} connections (${relative(PROJECT_ROOT, p.file)}):`,
      );
      console.log(formatSummary(p.summary));
    }

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
        orchestratorText: ORCHESTRATOR_TEXT_EXAMPLE,
      },
      source,
      versions: { '@a2a-js/sdk': packageVersion('@a2a-js/sdk'), autocannon: packageVersion('autocannon') },
      options: {
        ...options,
        databaseUrl: withoutPassword(options.databaseUrl),
        out: relative(PROJECT_ROOT, options.out),
      },
      hubs,
      remoteEcho: remoteStats && {
        requestsByVersion: remoteStats.requestsByVersion,
        connectionsAccepted: remoteStats.connections,
      },
      profiled: options.profile,
      results: rows,
      comparisons: pairs,
      targets: verdicts,
      profiles: profiles.map((p) => ({ ...p, file: relative(PROJECT_ROOT, p.file) })),
    };
    await writeJson(options, json);
    console.log(`\nResults: ${relative(process.cwd(), options.out)}`);
    if (rows.some((r) => r.errors > 0)) {
      // Not a missed target: wrong answers make the figures meaningless, which a script should notice.
      console.error('Some answers were not the echo (see errorSamples in the JSON): the figures are not valid.');
      process.exitCode = 2;
    }
  } finally {
    await stopServers(servers);
  }
}

/** Formatted as the repository's Prettier would, so a results file never trips `npm run format:check`. */
async function writeJson(options: Options, json: unknown): Promise<void> {
  mkdirSync(join(options.out, '..'), { recursive: true });
  const prettierConfig = await resolveConfig(options.out);
  writeFileSync(options.out, await format(JSON.stringify(json), { ...prettierConfig, filepath: options.out }));
}

function withoutPassword(url: string): string {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '***';
  return parsed.toString();
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exitCode = 1;
});
