/** What a run amounts to: medians over rounds, the tables, the hub/reference and proxy comparisons, the targets. */
import type { CpuUse } from './cpu';
import { Measurement, round } from './load';

export const TARGETS = ['reference', 'hub', 'remote', 'proxy'] as const;
export type TargetName = (typeof TARGETS)[number];

export type RoundResult = Measurement & { cpu: CpuUse };

export interface Row {
  target: TargetName;
  description: string;
  connections: number;
  /** Medians over the rounds (each figure on its own). */
  median: Pick<Measurement, 'requestsPerSecond' | 'latencyMs'> & {
    /** CPU time of the process answering the client (the hub, for the proxy) per answer. */
    serverMicrosPerAnswer: number;
    /** The other server's (the remote echo's, for the proxy). */
    upstreamMicrosPerAnswer?: number;
    cores: { loadGenerator: number; servers: number; other?: number };
  };
  errors: number;
  rounds: RoundResult[];
}

/** Redis and PostgreSQL use ~0.1 core under this load: more means some other program ran too. */
const OTHER_CORES_WARNING = 0.3;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export function summarizeRounds(
  target: TargetName,
  description: string,
  connections: number,
  rounds: RoundResult[],
): Row {
  const latency = (key: keyof Measurement['latencyMs']) => round(median(rounds.map((r) => r.latencyMs[key])), 3);
  const of = (pick: (r: RoundResult) => number | undefined) => {
    const values = rounds.map(pick).filter((v): v is number => v !== undefined);
    return values.length ? round(median(values), 2) : undefined;
  };
  return {
    target,
    description,
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
      upstreamMicrosPerAnswer: of((r) => r.cpu.servers[1]?.microsPerAnswer),
      cores: {
        loadGenerator: of((r) => r.cpu.loadGeneratorCores)!,
        servers: of((r) => r.cpu.servers.reduce((sum, x) => sum + x.cores, 0))!,
        other: of((r) => r.cpu.otherCores),
      },
    },
    errors: rounds.reduce((sum, r) => sum + r.errors.total + r.warmup.errors, 0),
    rounds,
  };
}

export function formatTable(rows: Row[]): string {
  const header = ['target', 'req/s', 'p50 ms', 'p99 ms', 'mean ms', 'CPU µs/answer', 'cores gen/srv/other', 'errors'];
  const fixed = (n: number | undefined, digits: number) => (n === undefined ? '?' : n.toFixed(digits));
  const body = rows.map((r) => [
    r.description,
    r.median.requestsPerSecond.toFixed(0),
    r.median.latencyMs.p50.toFixed(2),
    r.median.latencyMs.p99.toFixed(2),
    r.median.latencyMs.mean.toFixed(2),
    r.median.serverMicrosPerAnswer.toFixed(0) +
      (r.median.upstreamMicrosPerAnswer === undefined ? '' : ` + ${r.median.upstreamMicrosPerAnswer.toFixed(0)}`),
    [r.median.cores.loadGenerator, r.median.cores.servers, r.median.cores.other].map((c) => fixed(c, 2)).join('/'),
    String(r.errors),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(line)].join('\n');
}

export interface Comparisons {
  connections: number;
  hubToReferenceThroughput?: number;
  /**
   * The same ratio from CPU time per answer (reference ÷ hub). Both servers are CPU-bound, so it
   * predicts the throughput ratio, and it moves much less when other programs take CPU.
   */
  hubToReferenceByCpu?: number;
  proxyAddedLatencyMs?: { p50: number; p99: number; mean: number };
  /** Rows with errors make a comparison worthless; named here. */
  invalid: TargetName[];
}

export function compare(rows: Row[], connections: number): Comparisons {
  const at = (t: TargetName) => rows.find((r) => r.target === t && r.connections === connections);
  const [reference, hub, remote, proxy] = [at('reference'), at('hub'), at('remote'), at('proxy')];
  const result: Comparisons = {
    connections,
    invalid: [reference, hub, remote, proxy].filter((r): r is Row => !!r && r.errors > 0).map((r) => r.target),
  };
  if (reference && hub) {
    result.hubToReferenceThroughput = round(hub.median.requestsPerSecond / reference.median.requestsPerSecond, 3);
    result.hubToReferenceByCpu = round(reference.median.serverMicrosPerAnswer / hub.median.serverMicrosPerAnswer, 3);
  }
  if (remote && proxy) {
    const diff = (k: 'p50' | 'p99' | 'mean') => round(proxy.median.latencyMs[k] - remote.median.latencyMs[k], 3);
    result.proxyAddedLatencyMs = { p50: diff('p50'), p99: diff('p99'), mean: diff('mean') };
  }
  return result;
}

export interface Verdict {
  target: string;
  value: string;
  result: 'PASS' | 'MISS' | 'INVALID' | 'NOT RUN';
}

/** The tables, the comparisons and the target lines; a missed target is reported, never thrown. */
export function buildReport(
  rows: Row[],
  comparisons: Comparisons[],
  options: { connections: number[]; durationSeconds: number; rounds: number; profile: boolean },
) {
  const lines: string[] = [];
  for (const c of options.connections) {
    lines.push(
      `message/send, ${c} connection${c === 1 ? '' : 's'}, ${options.durationSeconds} s each` +
        `${options.rounds > 1 ? ` (medians of ${options.rounds} rounds)` : ''}${options.profile ? ' - PROFILED, not comparable' : ''}`,
    );
    lines.push(formatTable(rows.filter((r) => r.connections === c)), '');
  }
  // Throughput is judged with the servers saturated (the most connections); the latency a proxy
  // adds with no queue (the fewest): under saturation a closed loop's latency is connections ÷
  // throughput, so there it would only measure throughput again.
  const byConnections = [...comparisons].sort((a, b) => b.connections - a.connections);
  const loaded = byConnections[0];
  const unloaded = byConnections[byConnections.length - 1];
  const ratio = (c: Comparisons) =>
    c.hubToReferenceThroughput === undefined
      ? 'n/a'
      : `${c.hubToReferenceThroughput.toFixed(2)}× (by CPU per answer: ${c.hubToReferenceByCpu?.toFixed(2)}×)`;
  const added = (c: Comparisons) =>
    c.proxyAddedLatencyMs
      ? `p50 ${signed(c.proxyAddedLatencyMs.p50)} ms, p99 ${signed(c.proxyAddedLatencyMs.p99)} ms`
      : 'n/a';
  for (const c of comparisons) {
    lines.push(`at ${c.connections} connection(s): hub/reference throughput ${ratio(c)}; proxy adds ${added(c)}`);
  }
  const invalid = (c: Comparisons, names: TargetName[]) => names.some((n) => c.invalid.includes(n));
  const elsewhere = (pick: (c: Comparisons) => string | undefined, judged: Comparisons) => {
    const shown = comparisons.filter((c) => c !== judged).map((c) => `${c.connections} conn: ${pick(c) ?? 'n/a'}`);
    return shown.length ? ` (${shown.join(', ')})` : '';
  };
  const addedP50 = (c: Comparisons) => (c.proxyAddedLatencyMs ? `${signed(c.proxyAddedLatencyMs.p50)} ms` : undefined);
  const verdicts: Verdict[] = [
    {
      target: `hub ≥ 1.0× reference throughput (at ${loaded.connections} connections)`,
      value: `${ratio(loaded)}${elsewhere((c) => (c.hubToReferenceThroughput === undefined ? undefined : `${c.hubToReferenceThroughput.toFixed(2)}×`), loaded)}`,
      result:
        loaded.hubToReferenceThroughput === undefined
          ? 'NOT RUN'
          : invalid(loaded, ['hub', 'reference'])
            ? 'INVALID'
            : loaded.hubToReferenceThroughput >= 1
              ? 'PASS'
              : 'MISS',
    },
    {
      target: `proxy adds ≤ 1 ms at p50 (at ${unloaded.connections} connection${unloaded.connections === 1 ? '' : 's'})`,
      value: `${addedP50(unloaded) ?? 'n/a'}${elsewhere(addedP50, unloaded)}`,
      result: !unloaded.proxyAddedLatencyMs
        ? 'NOT RUN'
        : invalid(unloaded, ['remote', 'proxy'])
          ? 'INVALID'
          : unloaded.proxyAddedLatencyMs.p50 <= 1
            ? 'PASS'
            : 'MISS',
    },
  ];
  lines.push('', 'Targets:');
  for (const v of verdicts) lines.push(`  ${v.result.padEnd(7)} ${v.target}: ${v.value}`);
  const disturbed = rows.flatMap((r) =>
    r.rounds.flatMap((m, i) =>
      (m.cpu.otherCores ?? 0) > OTHER_CORES_WARNING
        ? [`round ${i + 1} of ${r.description} at ${r.connections} conn (${m.cpu.otherCores} cores)`]
        : [],
    ),
  );
  if (disturbed.length) {
    lines.push('', 'Other programs used the CPU during:', ...disturbed.map((d) => `  ${d}`));
    lines.push('Their throughput and latency are understated; CPU µs/answer is less affected.');
  }
  if (comparisons.some((c) => c.invalid.length)) {
    lines.push(
      '',
      'Some answers were errors: those figures measure failures, not the service. See errorSamples in the JSON.',
    );
  }
  return { text: lines.join('\n'), verdicts };
}

function signed(n: number): string {
  return `${n >= 0 ? '+' : ''}${n.toFixed(2)}`;
}
