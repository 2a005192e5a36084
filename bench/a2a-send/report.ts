/** What a run amounts to: medians over rounds, and the tables (targets.ts compares and judges them). */
import type { CpuUse } from './cpu';
import { Measurement, round } from './load';
import { Cell, cellKey, describe, sameCell } from './plan';
import { Variant, VARIANT_INFO } from './variants';

export type RoundResult = Measurement & { cpu: CpuUse };

export interface Row extends Cell {
  /** cellKey(): `proxy/task@real`. */
  key: string;
  description: string;
  connections: number;
  /** Medians over the rounds (each figure on its own). */
  median: Pick<Measurement, 'requestsPerSecond' | 'latencyMs'> & {
    /** CPU time of the process answering the client (the hub, for the proxy and the orchestrator) per answer. */
    serverMicrosPerAnswer: number;
    /** Of that, its main thread's (the rest: worker threads, such as the embedded hub's PGlite). */
    serverMainThreadMicrosPerAnswer?: number;
    /** The other server's (the remote echo's, for the proxy and the orchestrator). */
    upstreamMicrosPerAnswer?: number;
    /** Read and write system calls per answer, of the answering server and of the upstream one. */
    serverIoCallsPerAnswer?: number;
    upstreamIoCallsPerAnswer?: number;
    cores: { loadGenerator: number; servers: number; databases?: number; other?: number };
  };
  errors: number;
  rounds: RoundResult[];
}

/** The kernel and idle services use ~0.05 core: more means some other program ran too. */
const OTHER_CORES_WARNING = 0.3;
/** An idle server process (timers, pools) uses ~0.01 core. */
const IDLE_SERVER_WARNING = 0.05;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export function summarizeRounds(cell: Cell, connections: number, rounds: RoundResult[]): Row {
  const latency = (key: keyof Measurement['latencyMs']) => round(median(rounds.map((r) => r.latencyMs[key])), 3);
  const of = (pick: (r: RoundResult) => number | undefined) => {
    const values = rounds.map(pick).filter((v): v is number => v !== undefined);
    return values.length ? round(median(values), 2) : undefined;
  };
  return {
    ...cell,
    key: cellKey(cell),
    description: describe(cell),
    connections,
    median: {
      requestsPerSecond: round(median(rounds.map((r) => r.requestsPerSecond)), 1),
      latencyMs: {
        p50: latency('p50'),
        p90: latency('p90'),
        p99: latency('p99'),
        mean: latency('mean'),
        max: latency('max'),
      },
      serverMicrosPerAnswer: of((r) => r.cpu.servers[0].microsPerAnswer)!,
      serverMainThreadMicrosPerAnswer: of((r) => r.cpu.servers[0].mainThreadMicrosPerAnswer),
      upstreamMicrosPerAnswer: of((r) => r.cpu.servers[1]?.microsPerAnswer),
      serverIoCallsPerAnswer: of((r) => r.cpu.servers[0].ioCallsPerAnswer),
      upstreamIoCallsPerAnswer: of((r) => r.cpu.servers[1]?.ioCallsPerAnswer),
      cores: {
        loadGenerator: of((r) => r.cpu.loadGeneratorCores)!,
        servers: of((r) => r.cpu.servers.reduce((sum, x) => sum + x.cores, 0))!,
        databases: of((r) => r.cpu.databaseCores),
        other: of((r) => r.cpu.otherCores),
      },
    },
    errors: rounds.reduce((sum, r) => sum + r.errors.total + r.warmup.errors, 0),
    rounds,
  };
}

/** The row of `cell` at `connections`, if it was measured. */
export function rowOf(rows: Row[], cell: Cell, connections: number): Row | undefined {
  return rows.find((r) => r.connections === connections && sameCell(r, cell));
}

export function formatTable(rows: Row[]): string {
  const header = [
    'target',
    'req/s',
    'p50 ms',
    'p99 ms',
    'mean ms',
    'CPU µs/answer (main thread)',
    'I/O calls/answer',
    'cores gen/srv/db/other',
    'errors',
  ];
  const fixed = (n: number | undefined, digits: number) => (n === undefined ? '?' : n.toFixed(digits));
  const body = rows.map((r) => [
    r.description,
    r.median.requestsPerSecond.toFixed(0),
    r.median.latencyMs.p50.toFixed(2),
    r.median.latencyMs.p99.toFixed(2),
    r.median.latencyMs.mean.toFixed(2),
    r.median.serverMicrosPerAnswer.toFixed(0) +
      (r.median.serverMainThreadMicrosPerAnswer === undefined
        ? ''
        : ` (${r.median.serverMainThreadMicrosPerAnswer.toFixed(0)})`) +
      (r.median.upstreamMicrosPerAnswer === undefined ? '' : ` + ${r.median.upstreamMicrosPerAnswer.toFixed(0)}`),
    fixed(r.median.serverIoCallsPerAnswer, 1) +
      (r.median.upstreamIoCallsPerAnswer === undefined ? '' : ` + ${r.median.upstreamIoCallsPerAnswer.toFixed(1)}`),
    [r.median.cores.loadGenerator, r.median.cores.servers, r.median.cores.databases, r.median.cores.other]
      .map((c) => fixed(c, 2))
      .join('/'),
    String(r.errors),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(line)].join('\n');
}

/** A table per number of connections and variant, then the rounds other programs disturbed. */
export function formatTables(
  rows: Row[],
  options: { connections: number[]; variants: Variant[]; durationSeconds: number; rounds: number; profile: boolean },
): string {
  const lines: string[] = [];
  for (const c of options.connections) {
    for (const variant of options.variants) {
      const shown = rows.filter((r) => r.connections === c && r.variant === variant);
      if (!shown.length) continue;
      lines.push(
        `${variant}: ${VARIANT_INFO[variant].title} - message/send, ${c} connection${c === 1 ? '' : 's'}, ` +
          `${options.durationSeconds} s each${options.rounds > 1 ? ` (medians of ${options.rounds} rounds)` : ''}` +
          `${options.profile ? ' - PROFILED, not comparable' : ''}`,
      );
      lines.push(formatTable(shown), '');
    }
  }
  const disturbed = rows.flatMap((r) =>
    r.rounds.flatMap((m, i) =>
      (m.cpu.otherCores ?? 0) > OTHER_CORES_WARNING
        ? [`round ${i + 1} of ${r.key} at ${r.connections} conn (${m.cpu.otherCores} cores)`]
        : [],
    ),
  );
  const busyIdle = rows.flatMap((r) =>
    r.rounds.flatMap((m, i) =>
      m.cpu.idleServers
        .filter((s) => s.cores > IDLE_SERVER_WARNING)
        .map((s) => `round ${i + 1} of ${r.key} at ${r.connections} conn: ${s.label} (${s.cores} cores)`),
    ),
  );
  if (busyIdle.length) {
    lines.push('Servers not under test used the CPU during:', ...busyIdle.map((d) => `  ${d}`));
    lines.push('(e.g. a hub writing out what it deferred in its own window: that work is in no CPU µs/answer)', '');
  }
  if (disturbed.length) {
    lines.push('Other programs used the CPU during:', ...disturbed.map((d) => `  ${d}`));
    lines.push('Their throughput and latency are understated; CPU µs/answer is less affected.', '');
  }
  return lines.join('\n');
}
