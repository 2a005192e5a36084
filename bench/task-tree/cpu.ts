/**
 * Who used the cores during a measured window, from /proc: the server process, the benchmark
 * itself, PostgreSQL (the backends of the run's own database, and the server-wide helpers such
 * as the WAL writer and checkpointer), Redis, and everything else ("foreign": other programs, the
 * other databases' backends, the kernel's own work). A foreign share above ~0.3 core means
 * something else competed for this machine's cores and the run is marked disturbed.
 */
import { readdirSync, readFileSync } from 'node:fs';

const TICK_MS = 10; // USER_HZ = 100

type Kind = 'server' | 'bench' | 'pg' | 'redis' | 'other';

export interface CpuSample {
  at: number;
  /** Machine-wide busy time (all cores), ms. */
  machineMs: number;
  /** pid → [kind, CPU ms so far]. */
  processes: Map<number, [Kind, number]>;
}

export interface CpuShares {
  wallMs: number;
  /** CPU ms in the window. */
  serverMs: number;
  pgMs: number;
  redisMs: number;
  benchMs: number;
  foreignMs: number;
  /** The same, in cores (CPU ms / wall ms). */
  cores: { server: number; pg: number; redis: number; bench: number; foreign: number };
}

function machineBusyMs(): number {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  const [user, nice, system, , , irq, softirq, steal] = fields;
  return (user + nice + system + irq + softirq + (steal ?? 0)) * TICK_MS;
}

function readProcess(pid: number): { comm: string; cmdline: string; ms: number } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const close = stat.lastIndexOf(')');
    const comm = stat.slice(stat.indexOf('(') + 1, close);
    const fields = stat.slice(close + 2).split(' ');
    // After the comm: state is field 3; utime and stime are fields 14 and 15.
    const ms = (Number(fields[11]) + Number(fields[12])) * TICK_MS;
    const cmdline = comm === 'postgres' ? readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ') : '';
    return { comm, cmdline, ms };
  } catch {
    return undefined; // gone
  }
}

/** `database`: the run's own database; backends of other databases count as foreign. */
export function sampleCpu(serverPid: number, database: string): CpuSample {
  const processes = new Map<number, [Kind, number]>();
  let machineMs = NaN;
  try {
    machineMs = machineBusyMs();
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      const pid = Number(entry);
      const info = readProcess(pid);
      if (!info) continue;
      let kind: Kind = 'other';
      if (pid === serverPid) kind = 'server';
      else if (pid === process.pid) kind = 'bench';
      else if (info.comm === 'redis-server') kind = 'redis';
      else if (info.comm === 'postgres') {
        // "postgres: 15/main: <user> <database> <host> <state>" for backends; helpers name their role.
        const backend = /^postgres: [^:]+: (\S+) (\S+) /.exec(info.cmdline);
        kind =
          !backend ||
          backend[2] === database ||
          /^(checkpointer|background|walwriter|autovacuum|logical|archiver|stats)/.test(backend[1])
            ? 'pg'
            : 'other';
      }
      processes.set(pid, [kind, info.ms]);
    }
  } catch {
    // No /proc (not Linux): shares stay NaN.
  }
  return { at: performance.now(), machineMs, processes };
}

export function cpuBetween(a: CpuSample, b: CpuSample): CpuShares {
  const sums: Record<Kind, number> = { server: 0, bench: 0, pg: 0, redis: 0, other: 0 };
  for (const [pid, [kind, ms]] of b.processes) sums[kind] += ms - (a.processes.get(pid)?.[1] ?? 0);
  const wallMs = b.at - a.at;
  const machineMs = b.machineMs - a.machineMs;
  const known = sums.server + sums.bench + sums.pg + sums.redis;
  const foreignMs = Math.max(0, machineMs - known);
  const cores = (ms: number) => ms / wallMs;
  return {
    wallMs,
    serverMs: sums.server,
    pgMs: sums.pg,
    redisMs: sums.redis,
    benchMs: sums.bench,
    foreignMs,
    cores: {
      server: cores(sums.server),
      pg: cores(sums.pg),
      redis: cores(sums.redis),
      bench: cores(sums.bench),
      foreign: cores(foreignMs),
    },
  };
}

/** Waits (up to `maxMs`) for a second during which foreign work used under `limit` cores; returns what it saw. */
export async function waitForQuiet(
  serverPid: number,
  database: string,
  limit: number,
  maxMs: number,
): Promise<{ waitedMs: number; foreign: number }> {
  const start = performance.now();
  for (;;) {
    const a = sampleCpu(serverPid, database);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const shares = cpuBetween(a, sampleCpu(serverPid, database));
    const foreign = shares.cores.foreign;
    if (!(foreign >= limit) || performance.now() - start > maxMs)
      return { waitedMs: performance.now() - start, foreign };
  }
}
