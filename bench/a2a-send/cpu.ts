import { readFileSync } from 'node:fs';
import type { TargetStats } from './target-process';
import { round } from './load';
import type { TargetProcess } from './target-client';

/**
 * Where the CPU went during a measured window. On a 2-core machine the load generator, the
 * server(s), Redis and PostgreSQL share the cores, so throughput alone says little: CPU time per
 * answer in the server process is the figure that does not move with the neighbours.
 */
export interface CpuUse {
  wallSeconds: number;
  /** Cores used by the load generator (this process). */
  loadGeneratorCores: number;
  /**
   * Per server process: cores used, CPU time per answer, resident memory at the end, and TCP
   * connections accepted in the window (about `connections` when clients keep connections alive).
   */
  servers: { label: string; cores: number; microsPerAnswer: number; rssMiB: number; newConnections?: number }[];
  /** Cores busy on the whole machine (Linux only). */
  machineBusyCores?: number;
  /** Machine minus load generator minus servers: Redis, PostgreSQL, the kernel, anything else running. */
  otherCores?: number;
  /** Time the hypervisor gave to other guests while ours wanted the CPU (Linux "steal"), in cores. */
  stealCores?: number;
}

interface Snapshot {
  wallNs: bigint;
  loadGeneratorMicros: number;
  servers: { label: string; micros: number; rssBytes: number; connections?: number }[];
  machine?: { busy: number; steal: number; total: number };
}

export async function cpuSnapshot(servers: TargetProcess[]): Promise<Snapshot> {
  const stats = await Promise.all(servers.map((s) => s.request<TargetStats>({ type: 'stats' })));
  const own = process.cpuUsage();
  return {
    wallNs: process.hrtime.bigint(),
    loadGeneratorMicros: own.user + own.system,
    servers: servers.map((s, i) => ({
      label: s.label,
      micros: stats[i].cpuMicros,
      rssBytes: stats[i].rssBytes,
      connections: stats[i].connections,
    })),
    machine: machineTicks(),
  };
}

export function cpuBetween(before: Snapshot, after: Snapshot, answers: number): CpuUse {
  const wallSeconds = Number(after.wallNs - before.wallNs) / 1e9;
  const cores = (micros: number) => round(micros / 1e6 / wallSeconds, 2);
  const servers = after.servers.map((s, i) => {
    const micros = s.micros - before.servers[i].micros;
    return {
      label: s.label,
      cores: cores(micros),
      microsPerAnswer: answers ? Math.round(micros / answers) : NaN,
      rssMiB: Math.round(s.rssBytes / 2 ** 20),
      newConnections:
        s.connections === undefined || before.servers[i].connections === undefined
          ? undefined
          : s.connections - before.servers[i].connections,
    };
  });
  const loadGeneratorCores = cores(after.loadGeneratorMicros - before.loadGeneratorMicros);
  const use: CpuUse = { wallSeconds: round(wallSeconds, 2), loadGeneratorCores, servers };
  if (before.machine && after.machine) {
    const total = after.machine.total - before.machine.total;
    const busyShare = total > 0 ? (after.machine.busy - before.machine.busy) / total : 0;
    use.machineBusyCores = round(busyShare * coreCount(), 2);
    use.otherCores = round(use.machineBusyCores - loadGeneratorCores - servers.reduce((sum, s) => sum + s.cores, 0), 2);
    use.stealCores = total > 0 ? round(((after.machine.steal - before.machine.steal) / total) * coreCount(), 2) : 0;
  }
  return use;
}

let cores: number | undefined;
function coreCount(): number {
  cores ??= readFileSync('/proc/stat', 'utf8')
    .split('\n')
    .filter((l) => /^cpu\d+ /.test(l)).length;
  return cores;
}

/** Aggregate busy and total jiffies from /proc/stat; undefined where there is none. */
function machineTicks(): { busy: number; steal: number; total: number } | undefined {
  try {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    // user nice system idle iowait irq softirq steal (guest time is already in user/nice); steal is not busy
    const total = fields.slice(0, 8).reduce((a, b) => a + b, 0);
    const idle = fields[3] + fields[4];
    return { busy: total - idle - fields[7], steal: fields[7], total };
  } catch {
    return undefined;
  }
}
