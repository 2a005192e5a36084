/**
 * bench/grpc: the hub's gRPC services against their HTTP equivalents, side by side in one run -
 * SystemService.GetInfo, RegistryService.ListAgentCards (switchboard.v2) and A2A SendMessage to a
 * remote Task agent - the same closed-loop load on each, every answer checked. Reports throughput,
 * p50/p99 and the hub's CPU per call, and the gRPC/HTTP ratios. See bench/README.md.
 *
 *   npm run bench:grpc [-- --duration 8] [--warmup 2] [--connections 16] [--grpc-sessions 1] [--rounds 3]
 *                      [--backend embedded|real] [--profile]
 */
import { mkdirSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { settle } from '../a2a-send/cpu';
import { latencyStats } from '../a2a-send/load';
import { formatSummary, summarizeFile } from '../a2a-send/profile-summary';
import { TargetProcess } from '../a2a-send/target-client';
import type { TargetStats } from '../a2a-send/target-process';
import { VARIANT_INFO } from '../a2a-send/variants';
import { Call, callPairs } from './calls';

const PROJECT_ROOT = join(__dirname, '..', '..');

interface Cell {
  callsPerSecond: number;
  p50: number;
  p99: number;
  hubMicrosPerCall: number;
  wrong: number;
}

function options() {
  const { values } = parseArgs({
    options: {
      duration: { type: 'string', default: '8' },
      warmup: { type: 'string', default: '2' },
      connections: { type: 'string', default: '16' },
      backend: { type: 'string', default: 'embedded' },
      'grpc-sessions': { type: 'string', default: '1' },
      rounds: { type: 'string', default: '3' },
      profile: { type: 'boolean', default: false },
    },
  });
  const int = (name: string, raw: string, min: number) => {
    const n = Number(raw);
    if (!Number.isInteger(n) || n < min) throw new Error(`--${name} must be an integer ≥ ${min}`);
    return n;
  };
  if (!['embedded', 'real'].includes(values.backend)) throw new Error('--backend is embedded or real');
  return {
    durationSeconds: int('duration', values.duration, 1),
    warmupSeconds: int('warmup', values.warmup, 0),
    connections: int('connections', values.connections, 1),
    grpcSessions: int('grpc-sessions', values['grpc-sessions'], 1),
    rounds: int('rounds', values.rounds, 1),
    real: values.backend === 'real',
    profile: values.profile,
  };
}

/** `connections` loops, each sending its next call when the previous answer is in, for `seconds`. */
async function closedLoop(call: Call, connections: number, seconds: number) {
  const until = Date.now() + seconds * 1000;
  const latencies: number[] = [];
  let wrong = 0;
  let n = 0;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (Date.now() < until) {
        const started = process.hrtime.bigint();
        const right = await call(n++).catch(() => false);
        latencies.push(Number(process.hrtime.bigint() - started) / 1e6);
        if (!right) wrong++;
      }
    }),
  );
  return { latencies, wrong };
}

async function measure(
  call: Call,
  hub: TargetProcess,
  opts: ReturnType<typeof options>,
  profileAs?: string,
): Promise<Cell> {
  await settle([hub]);
  await closedLoop(call, opts.connections, opts.warmupSeconds);
  if (profileAs) await hub.request({ type: 'profile-start' });
  const before = await hub.request<TargetStats>({ type: 'stats' });
  const started = process.hrtime.bigint();
  const { latencies, wrong } = await closedLoop(call, opts.connections, opts.durationSeconds);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const after = await hub.request<TargetStats>({ type: 'stats' });
  if (profileAs) {
    const path = join(PROJECT_ROOT, 'bench', 'results', 'profiles', `grpc-${profileAs}.cpuprofile`);
    mkdirSync(dirname(path), { recursive: true });
    await hub.request({ type: 'profile-stop', path });
    console.log(formatSummary(summarizeFile(path, 25, latencies.length)));
  }
  const stats = latencyStats(latencies);
  return {
    callsPerSecond: Math.round((latencies.length - wrong) / seconds),
    p50: stats.p50,
    p99: stats.p99,
    hubMicrosPerCall: Math.round((after.cpuMicros - before.cpuMicros) / latencies.length),
    wrong,
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

async function main(): Promise<void> {
  const opts = options();
  const cpu = cpus();
  console.log(
    `gRPC vs HTTP benchmark - ${new Date().toISOString()} - ${cpu.length} × ${cpu[0]?.model.trim()}, node ${process.version}; ` +
      `${opts.connections} concurrent calls (gRPC on ${opts.grpcSessions} HTTP/2 connection(s)), ${opts.rounds} rounds of ` +
      `${opts.durationSeconds} s after ${opts.warmupSeconds} s warm-up per cell, load average ${loadavg()[0].toFixed(1)}, hub on ` +
      (opts.real ? 'PostgreSQL + Redis' : 'the embedded defaults'),
  );
  const echo = await TargetProcess.start('remote echo', 'echo', { variants: ['task'] });
  const hub = await TargetProcess.start('hub', 'hub', {
    databaseUrl: opts.real ? 'postgres://postgres:postgres@127.0.0.1:5432/postgres' : undefined,
    redisUrl: opts.real ? 'redis://127.0.0.1:6379' : undefined,
    logLevel: 'warn',
    // The registry limit still counts every ListAgentCards call (the limiter's cost is measured),
    // but must not refuse them: a run makes about 100,000 in a minute, the bench hub's own limit.
    env: { RATE_LIMIT_REGISTRY_PER_MIN: '100000000' },
    localVariants: [],
    remoteOrigin: echo.info.baseUrl,
    remoteVariants: ['task'],
  });
  const { pairs, close } = callPairs({
    baseUrl: hub.info.baseUrl,
    grpcAddress: `127.0.0.1:${String(hub.info.setup?.grpcPort)}`,
    apiKey: hub.info.apiKey!,
    taskAgentId: VARIANT_INFO.task.remoteId,
    connections: opts.connections,
    grpcSessions: opts.grpcSessions,
  });
  const verdicts: string[] = [];
  try {
    for (const pair of pairs) {
      const slug = pair.name.split(' ')[0].toLowerCase();
      const cpuRatios: number[] = [];
      const throughputRatios: number[] = [];
      // gRPC and HTTP cells alternate, round after round: each ratio is of two cells measured one
      // right after the other, so a change of load on a shared machine touches both alike.
      for (let round = 1; round <= opts.rounds; round++) {
        const profileAs = opts.profile && round === 1 ? slug : undefined;
        const overGrpc = await measure(pair.grpc, hub, opts, profileAs && `${profileAs}-grpc`);
        const overHttp = await measure(pair.http, hub, opts, profileAs && `${profileAs}-http`);
        for (const [transport, cell] of [
          ['gRPC', overGrpc],
          ['HTTP', overHttp],
        ] as const) {
          console.log(
            `${pair.name.padEnd(34).slice(0, 34)}  #${round}  ${transport}  ${String(cell.callsPerSecond).padStart(6)}/s  ` +
              `p50 ${cell.p50.toFixed(2).padStart(6)} ms  p99 ${cell.p99.toFixed(2).padStart(7)} ms  ` +
              `hub ${String(cell.hubMicrosPerCall).padStart(5)} µs/call  wrong ${cell.wrong}`,
          );
        }
        cpuRatios.push(overGrpc.hubMicrosPerCall / overHttp.hubMicrosPerCall);
        throughputRatios.push(overGrpc.callsPerSecond / overHttp.callsPerSecond);
      }
      const cpuRatio = median(cpuRatios);
      const throughputRatio = median(throughputRatios);
      const each = (ratios: number[]) => ratios.map((r) => r.toFixed(2)).join(', ');
      console.log(`  gRPC/HTTP hub CPU per call: ${each(cpuRatios)}; throughput: ${each(throughputRatios)}`);
      const sendMessage = pair.name.startsWith('A2A');
      verdicts.push(
        sendMessage
          ? `${throughputRatio >= 1 ? 'MET ' : 'MISS'} A2A SendMessage over gRPC ≥ 1.0× JSON-RPC throughput: ${throughputRatio.toFixed(2)}× (hub CPU per call ${cpuRatio.toFixed(2)}×)`
          : `${cpuRatio <= 0.5 ? 'MET ' : 'MISS'} ${pair.name.split(' /')[0]}: hub CPU per gRPC call ≤ 0.5× HTTP: ${cpuRatio.toFixed(2)}× (throughput ${throughputRatio.toFixed(2)}×)`,
      );
    }
    console.log(`\nTargets (medians of ${opts.rounds} rounds' ratios):\n${verdicts.map((v) => `  ${v}`).join('\n')}`);
  } finally {
    await close();
    await Promise.all([hub.stop(), echo.stop()]);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
