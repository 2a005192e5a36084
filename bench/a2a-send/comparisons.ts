/**
 * Cells measured against each other at one number of connections: the hub against the SDK's
 * server, the proxy and the orchestrator against the agent called directly, the proxy against
 * the bare relay (the least a Node proxy costs) and the SDK relay (the least an SDK-built proxy
 * costs), and those relays against the agent, a Task answer against
 * a Message answer, one backend against the other. targets.ts judges some of them; all are shown.
 */
import { round } from './load';
import { Backend, Cell, TargetName } from './plan';
import { Row, rowOf } from './report';
import { ORCHESTRATED_VARIANT, Variant } from './variants';

/** Two cells at one number of connections: `subject` against `baseline`. */
export interface Pair {
  connections: number;
  subject: string;
  baseline: string;
  /** subject ÷ baseline. */
  throughputRatio: number;
  requestsPerSecond: [number, number];
  p50Ms: [number, number];
  /** subject − baseline. */
  addedLatencyMs: { p50: number; p99: number; mean: number };
  /** CPU per answer of the process answering the client (the hub for hub targets). */
  serverMicrosPerAnswer: [number, number];
  /** Of every server process involved (for a proxy: hub + remote echo). */
  totalMicrosPerAnswer: [number, number];
  /** Either cell had wrong answers: its figures measure failures. */
  invalid: boolean;
}

export function pairOf(rows: Row[], subject: Cell, baseline: Cell, connections: number): Pair | undefined {
  const [s, b] = [rowOf(rows, subject, connections), rowOf(rows, baseline, connections)];
  if (!s || !b) return undefined;
  const total = (r: Row) => r.median.serverMicrosPerAnswer + (r.median.upstreamMicrosPerAnswer ?? 0);
  const diff = (k: 'p50' | 'p99' | 'mean') => round(s.median.latencyMs[k] - b.median.latencyMs[k], 3);
  return {
    connections,
    subject: s.key,
    baseline: b.key,
    throughputRatio: round(s.median.requestsPerSecond / b.median.requestsPerSecond, 3),
    requestsPerSecond: [s.median.requestsPerSecond, b.median.requestsPerSecond],
    p50Ms: [s.median.latencyMs.p50, b.median.latencyMs.p50],
    addedLatencyMs: { p50: diff('p50'), p99: diff('p99'), mean: diff('mean') },
    serverMicrosPerAnswer: [s.median.serverMicrosPerAnswer, b.median.serverMicrosPerAnswer],
    totalMicrosPerAnswer: [total(s), total(b)],
    invalid: s.errors > 0 || b.errors > 0,
  };
}

/** Every comparison the measured rows allow, by connections. */
export function comparisons(rows: Row[], connections: number[], variants: Variant[], backends: Backend[]): Pair[] {
  const wanted: [Cell, Cell][] = [];
  const on = (target: TargetName, variant: Variant, backend?: Backend): Cell => ({ target, variant, backend });
  for (const variant of variants) {
    wanted.push([on('relay', variant), on('remote', variant)]);
    wanted.push([on('sdk-relay', variant), on('remote', variant)]);
    for (const backend of backends) {
      wanted.push([on('hub', variant, backend), on('reference', variant)]);
      wanted.push([on('proxy', variant, backend), on('remote', variant)]);
      wanted.push([on('proxy', variant, backend), on('relay', variant)]);
      wanted.push([on('proxy', variant, backend), on('sdk-relay', variant)]);
      if (variant !== 'message') {
        wanted.push([on('hub', variant, backend), on('hub', 'message', backend)]);
        wanted.push([on('proxy', variant, backend), on('proxy', 'message', backend)]);
      }
      if (variant === ORCHESTRATED_VARIANT) wanted.push([on('orchestrator', variant, backend), on('remote', variant)]);
    }
    if (backends.length > 1) {
      for (const target of ['hub', 'proxy', 'orchestrator'] as const) {
        wanted.push([on(target, variant, 'embedded'), on(target, variant, 'real')]);
      }
    }
  }
  return connections.flatMap((c) =>
    wanted.flatMap(([subject, baseline]) => {
      const pair = pairOf(rows, subject, baseline, c);
      return pair ? [pair] : [];
    }),
  );
}

export function formatComparisons(pairs: Pair[]): string {
  const lines = [
    'Comparisons (subject vs baseline: throughput, p50 added, CPU µs per answer of every server involved):',
  ];
  for (const p of pairs) {
    const [s, b] = p.totalMicrosPerAnswer;
    lines.push(
      `  ${String(p.connections).padStart(3)} conn  ${`${p.subject} vs ${p.baseline}:`.padEnd(46)} ` +
        `${times(p.throughputRatio).padStart(6)}, p50 ${signed(p.addedLatencyMs.p50).padStart(7)} ms, ` +
        `${s.toFixed(0)} vs ${b.toFixed(0)} µs${p.invalid ? ' (INVALID: wrong answers)' : ''}`,
    );
  }
  return lines.join('\n');
}

export function times(n: number, digits = 2): string {
  return `${n.toFixed(digits)}×`;
}

export function signed(n: number): string {
  return `${n >= 0 ? '+' : ''}${n.toFixed(2)}`;
}
