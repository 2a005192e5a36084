import { readdirSync, readFileSync } from 'node:fs';
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
  servers: {
    label: string;
    cores: number;
    microsPerAnswer: number;
    /** Of `microsPerAnswer`, the main thread's (Linux only; 10 ms ticks); the rest is worker threads. */
    mainThreadMicrosPerAnswer?: number;
    /** Read and write system calls per answer (sockets included; Linux only). */
    ioCallsPerAnswer?: number;
    rssMiB: number;
    newConnections?: number;
  }[];
  /**
   * The run's other server processes, not under test in this window: work they do now (a hub
   * writing out what it deferred during its own window) is not charged to the cell measured.
   */
  idleServers: { label: string; cores: number }[];
  /** Cores busy on the whole machine (Linux only). */
  machineBusyCores?: number;
  /**
   * PostgreSQL and Redis server processes (Linux only), whoever they work for: the real backend's
   * share, which the hub's own CPU time leaves out (the embedded backend's PGlite runs on a worker
   * thread of the hub, so its time is the hub's).
   */
  databaseCores?: number;
  /** Machine minus load generator, servers (idle ones too) and databases: the kernel, anything else running. */
  otherCores?: number;
  /** Time the hypervisor gave to other guests while ours wanted the CPU (Linux "steal"), in cores. */
  stealCores?: number;
}

interface Snapshot {
  wallNs: bigint;
  loadGeneratorMicros: number;
  servers: {
    label: string;
    micros: number;
    mainThreadMicros?: number;
    rssBytes: number;
    ioCalls?: number;
    connections?: number;
  }[];
  idleServers: { label: string; micros: number }[];
  machine?: { busy: number; steal: number; total: number };
  /** CPU ticks used so far by the postgres and redis-server processes. */
  databaseTicks?: number;
}

/** CPU used so far by `servers` (those under test), the `idle` ones, this process, the databases and the machine. */
export async function cpuSnapshot(servers: TargetProcess[], idle: TargetProcess[] = []): Promise<Snapshot> {
  const [stats, idleStats] = await Promise.all(
    [servers, idle].map((list) => Promise.all(list.map((s) => s.request<TargetStats>({ type: 'stats' })))),
  );
  const own = process.cpuUsage();
  return {
    wallNs: process.hrtime.bigint(),
    loadGeneratorMicros: own.user + own.system,
    servers: servers.map((s, i) => ({
      label: s.label,
      micros: stats[i].cpuMicros,
      mainThreadMicros: stats[i].mainThreadCpuMicros,
      rssBytes: stats[i].rssBytes,
      ioCalls: stats[i].ioCalls,
      connections: stats[i].connections,
    })),
    idleServers: idle.map((s, i) => ({ label: s.label, micros: idleStats[i].cpuMicros })),
    machine: machineTicks(),
    databaseTicks: databaseTicks(),
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
      mainThreadMicrosPerAnswer:
        answers && s.mainThreadMicros !== undefined && before.servers[i].mainThreadMicros !== undefined
          ? Math.round((s.mainThreadMicros - before.servers[i].mainThreadMicros) / answers)
          : undefined,
      ioCallsPerAnswer:
        answers && s.ioCalls !== undefined && before.servers[i].ioCalls !== undefined
          ? round((s.ioCalls - before.servers[i].ioCalls) / answers, 1)
          : undefined,
      rssMiB: Math.round(s.rssBytes / 2 ** 20),
      newConnections:
        s.connections === undefined || before.servers[i].connections === undefined
          ? undefined
          : s.connections - before.servers[i].connections,
    };
  });
  const loadGeneratorCores = cores(after.loadGeneratorMicros - before.loadGeneratorMicros);
  const idleServers = after.idleServers.map((s, i) => ({
    label: s.label,
    cores: cores(s.micros - before.idleServers[i].micros),
  }));
  const use: CpuUse = { wallSeconds: round(wallSeconds, 2), loadGeneratorCores, servers, idleServers };
  if (before.machine && after.machine) {
    const total = after.machine.total - before.machine.total;
    const busyShare = total > 0 ? (after.machine.busy - before.machine.busy) / total : 0;
    use.machineBusyCores = round(busyShare * coreCount(), 2);
    if (before.databaseTicks !== undefined && after.databaseTicks !== undefined) {
      use.databaseCores = round(
        Math.max(0, after.databaseTicks - before.databaseTicks) / TICKS_PER_SECOND / wallSeconds,
        2,
      );
    }
    const serverCores = [...servers, ...idleServers].reduce((sum, s) => sum + s.cores, 0);
    use.otherCores = round(use.machineBusyCores - loadGeneratorCores - serverCores - (use.databaseCores ?? 0), 2);
    use.stealCores = total > 0 ? round(((after.machine.steal - before.machine.steal) / total) * coreCount(), 2) : 0;
  }
  return use;
}

/**
 * Waits until each of `servers` has used under 5 % of a core over a quarter of a second (at most
 * `limitMs`), so what the last cell left behind - rows written behind its answers (the embedded
 * PostgreSQL runs on a worker thread of the hub, its time is the hub's), garbage - is not charged
 * to the next cell measured on the same process.
 */
export async function settle(servers: TargetProcess[], limitMs = 15_000): Promise<void> {
  const until = Date.now() + limitMs;
  let last = await cpuSnapshot(servers);
  while (Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    const now = await cpuSnapshot(servers);
    const { servers: use } = cpuBetween(last, now, 0);
    if (use.every((server) => server.cores < 0.05)) return;
    last = now;
  }
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

/** Linux's USER_HZ: the unit of /proc's CPU times (100 on every common architecture). */
const TICKS_PER_SECOND = 100;
const DATABASE_COMMANDS = new Set(['postgres', 'redis-server']);

/**
 * User + system ticks of every postgres and redis-server process visible in /proc. A process
 * that exits within a window takes its ticks with it (PostgreSQL's backends live as long as the
 * hub's pool, so hardly any do).
 */
function databaseTicks(): number | undefined {
  try {
    let ticks = 0;
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      let stat: string;
      try {
        stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      } catch {
        continue; // gone since the listing
      }
      // pid (comm) state ppid ...: comm may hold spaces, so split after its closing parenthesis.
      const close = stat.lastIndexOf(')');
      if (!DATABASE_COMMANDS.has(stat.slice(stat.indexOf('(') + 1, close))) continue;
      const fields = stat.slice(close + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]); // utime, stime (fields 14 and 15 of the line)
    }
    return ticks;
  } catch {
    return undefined;
  }
}
