/**
 * The targets, each judged from two cells measured in the same run: throughput at the most
 * connections (the servers saturated), the latency a hop adds at the fewest (no queue: under
 * saturation a closed loop's latency is connections ÷ throughput, so there it would only measure
 * throughput again), every other value shown beside the verdict. A missed target is reported,
 * never thrown.
 */
import { Pair, pairOf, signed, times } from './comparisons';
import { round } from './load';
import { Backend, BACKEND_LABELS, Cell, cellKey } from './plan';
import type { Row } from './report';
import { ORCHESTRATED_VARIANT, Variant, VARIANTS } from './variants';

/** How a target is judged. */
type Check =
  /** subject ÷ baseline throughput at the most connections, at least `min`. */
  | { kind: 'throughput'; min: number }
  /** subject p50 − baseline p50 at the fewest connections, at most `maxMs`. */
  | { kind: 'added-p50'; maxMs: number }
  /** The answering process's CPU per answer, subject ÷ baseline at the most connections, at most `max`; `also` shown. */
  | { kind: 'cpu'; max: number; also?: [Cell, Cell] }
  /** Throughput as `throughput`, with both p50s at the fewest connections shown beside it. */
  | { kind: 'backend'; min: number };

interface Spec {
  section: string;
  target: string;
  subject: Cell;
  baseline: Cell;
  check: Check;
}

export interface Verdict {
  section: string;
  target: string;
  subject: string;
  baseline: string;
  /** The figure judged (a ratio, or ms added), when both cells were measured. */
  measured?: number;
  limit: number;
  value: string;
  result: 'PASS' | 'MISS' | 'INVALID' | 'NOT RUN';
}

const TASK_VARIANTS: Variant[] = ['task', 'task-stream'];

/** Every target, for the chosen backends (the embedded/real ratios only when both run). */
function specs(backends: readonly Backend[]): Spec[] {
  const list: Spec[] = [];
  for (const backend of backends) {
    const section = `hub on ${backend} (${BACKEND_LABELS[backend]})`;
    const hub = (variant: Variant): Cell => ({ target: 'hub', variant, backend });
    const proxy = (variant: Variant): Cell => ({ target: 'proxy', variant, backend });
    const add = (target: string, subject: Cell, baseline: Cell, check: Check) =>
      list.push({ section, target, subject, baseline, check });
    add('message: hub ≥ 1.0× reference throughput', hub('message'), ref('message'), { kind: 'throughput', min: 1 });
    add('message: proxy adds ≤ 1 ms at p50', proxy('message'), remote('message'), { kind: 'added-p50', maxMs: 1 });
    for (const v of TASK_VARIANTS) {
      add(`${v}: proxy ≥ 0.45× remote direct throughput`, proxy(v), remote(v), { kind: 'throughput', min: 0.45 });
      add(`${v}: proxy adds ≤ 1 ms at p50`, proxy(v), remote(v), { kind: 'added-p50', maxMs: 1 });
      add(`${v}: hub CPU per answer ≤ 1.3× message's (proxy)`, proxy(v), proxy('message'), {
        kind: 'cpu',
        max: 1.3,
        also: [hub(v), hub('message')],
      });
    }
    const orchestrator: Cell = { target: 'orchestrator', variant: ORCHESTRATED_VARIANT, backend };
    const agent = remote(ORCHESTRATED_VARIANT);
    add(`orchestrator → remote ${ORCHESTRATED_VARIANT} adds ≤ 2 ms at p50`, orchestrator, agent, {
      kind: 'added-p50',
      maxMs: 2,
    });
    add(`orchestrator ≥ 0.4× remote ${ORCHESTRATED_VARIANT} throughput`, orchestrator, agent, {
      kind: 'throughput',
      min: 0.4,
    });
  }
  if (backends.includes('real') && backends.includes('embedded')) {
    const hubCells: Cell[] = [
      ...VARIANTS.flatMap((variant): Cell[] => [
        { target: 'hub', variant },
        { target: 'proxy', variant },
      ]),
      { target: 'orchestrator', variant: ORCHESTRATED_VARIANT },
    ];
    for (const cell of hubCells) {
      list.push({
        section: 'embedded defaults against the real backend',
        target: `${cell.target}/${cell.variant}: embedded ≥ 0.8× real throughput`,
        subject: { ...cell, backend: 'embedded' },
        baseline: { ...cell, backend: 'real' },
        check: { kind: 'backend', min: 0.8 },
      });
    }
  }
  return list;
}

function ref(variant: Variant): Cell {
  return { target: 'reference', variant };
}

function remote(variant: Variant): Cell {
  return { target: 'remote', variant };
}

/** Every target judged on the rows measured. */
export function judge(rows: Row[], connections: number[], backends: readonly Backend[]): Verdict[] {
  const most = Math.max(...connections);
  const fewest = Math.min(...connections);
  return specs(backends).map((spec) => {
    const { check } = spec;
    const judgedAt = check.kind === 'added-p50' ? fewest : most;
    const at = (c: number) => pairOf(rows, spec.subject, spec.baseline, c);
    const judged = at(judgedAt);
    const elsewhere = (show: (p: Pair) => string) => {
      const shown = connections
        .filter((c) => c !== judgedAt)
        .flatMap((c) => {
          const p = at(c);
          return p ? [`${c} conn: ${show(p)}`] : [];
        });
      return shown.length ? `; ${shown.join(', ')}` : '';
    };
    const base = {
      section: spec.section,
      target: spec.target,
      subject: cellKey(spec.subject),
      baseline: cellKey(spec.baseline),
    };
    const limit = check.kind === 'added-p50' ? check.maxMs : check.kind === 'cpu' ? check.max : check.min;
    if (!judged) return { ...base, limit, value: 'not measured in this run', result: 'NOT RUN' };
    // The figure judged is shown to 3 decimals, so one shown as the limit cannot read as a miss.
    let measured: number;
    let value: string;
    let met: boolean;
    switch (check.kind) {
      case 'throughput':
      case 'backend': {
        measured = judged.throughputRatio;
        met = measured >= check.min;
        const [s, b] = judged.requestsPerSecond;
        value = `${times(measured, 3)} (${s.toFixed(0)} vs ${b.toFixed(0)} req/s at ${most} conn`;
        if (check.kind === 'backend') {
          // No ratio by CPU here: the real backend's PostgreSQL and Redis work is outside the hub process.
          const unloaded = at(fewest);
          value += unloaded && fewest !== most ? `; p50 at ${fewest} conn ${ms(unloaded.p50Ms)})` : ')';
        } else {
          const [st, bt] = judged.totalMicrosPerAnswer;
          value += `; by CPU per answer ${times(bt / st)})${elsewhere((p) => times(p.throughputRatio))}`;
        }
        break;
      }
      case 'added-p50':
        measured = judged.addedLatencyMs.p50;
        met = measured <= check.maxMs;
        value =
          `${signed(measured)} ms (p50 ${ms(judged.p50Ms)}, ` +
          `p99 ${signed(judged.addedLatencyMs.p99)} ms at ${fewest} conn)` +
          elsewhere((p) => `${signed(p.addedLatencyMs.p50)} ms`);
        break;
      case 'cpu': {
        const [s, b] = judged.serverMicrosPerAnswer;
        measured = round(s / b, 3);
        met = measured <= check.max;
        value = `${times(measured, 3)} (${s.toFixed(0)} vs ${b.toFixed(0)} µs per answer at ${most} conn)`;
        const local = check.also && pairOf(rows, check.also[0], check.also[1], most);
        if (local) {
          const [ls, lb] = local.serverMicrosPerAnswer;
          value += `; local agents: ${times(ls / lb)} (${ls.toFixed(0)} vs ${lb.toFixed(0)} µs)`;
        }
        break;
      }
    }
    return {
      ...base,
      measured,
      limit,
      value,
      result: judged.invalid ? 'INVALID' : met ? 'PASS' : 'MISS',
    };
  });
}

/** The verdicts by section; those not run in one line (a subset run leaves many). */
export function formatVerdicts(verdicts: Verdict[]): string {
  const lines: string[] = ['Targets:'];
  let section = '';
  for (const v of verdicts.filter((v) => v.result !== 'NOT RUN')) {
    if (v.section !== section) lines.push(`  ${(section = v.section)}:`);
    lines.push(`    ${v.result.padEnd(7)} ${v.target}: ${v.value}`);
  }
  const notRun = verdicts.filter((v) => v.result === 'NOT RUN').length;
  if (notRun) lines.push(`  NOT RUN ${notRun} more, whose cells this run did not measure (listed in the JSON)`);
  if (verdicts.some((v) => v.result === 'INVALID')) {
    lines.push(
      '',
      'Some answers were wrong: those figures measure failures, not the service. See errorSamples in the JSON.',
    );
  }
  return lines.join('\n');
}

/** Two latencies, subject's first. */
function ms([subject, baseline]: [number, number]): string {
  return `${subject.toFixed(2)} vs ${baseline.toFixed(2)} ms`;
}
