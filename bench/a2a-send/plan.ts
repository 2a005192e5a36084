/**
 * What a run measures: each *cell* is one target serving one variant, on one backend when the hub
 * answers. Cells are measured one after another, in an order that keeps the figures compared
 * with each other close in time (the machine is shared and noisy).
 */
import { ORCHESTRATED_VARIANT, ORCHESTRATOR_WORD, Variant, VARIANT_INFO } from './variants';

export const TARGETS = ['reference', 'hub', 'remote', 'relay', 'sdk-relay', 'proxy', 'orchestrator'] as const;
export type TargetName = (typeof TARGETS)[number];

/** The hub's backends: `real` PostgreSQL + Redis, `embedded` PGlite + the in-process store (`npm start`'s defaults). */
export const BACKENDS = ['real', 'embedded'] as const;
export type Backend = (typeof BACKENDS)[number];

export const BACKEND_LABELS: Record<Backend, string> = {
  real: 'PostgreSQL + Redis',
  embedded: 'embedded PGlite + in-process store',
};

export interface Cell {
  target: TargetName;
  variant: Variant;
  /** Which hub answers: set exactly for the targets the hub serves. */
  backend?: Backend;
}

/** Targets the hub answers (so measured once per backend). */
export function onHub(target: TargetName): boolean {
  return target === 'hub' || target === 'proxy' || target === 'orchestrator';
}

/** `proxy/task@real`, `remote/task`: a cell's name in the JSON and in error messages. */
export function cellKey(cell: Cell): string {
  return `${cell.target}/${cell.variant}${cell.backend ? `@${cell.backend}` : ''}`;
}

export function sameCell(a: Cell, b: Cell): boolean {
  return a.target === b.target && a.variant === b.variant && a.backend === b.backend;
}

/**
 * The cells to measure, in order: per variant the reference, the hub on each backend, the remote
 * echo direct, the bare relay and the SDK relay to it, the proxy on each backend, and after the orchestrated variant the orchestrator on
 * each backend. The orchestrator is only routed to the remote Task agent, so it needs that variant.
 */
export function cellsOf(targets: readonly TargetName[], variants: readonly Variant[], backends: readonly Backend[]) {
  const cells: Cell[] = [];
  const add = (target: TargetName, variant: Variant) => {
    if (!targets.includes(target)) return;
    if (onHub(target)) for (const backend of backends) cells.push({ target, variant, backend });
    else cells.push({ target, variant });
  };
  for (const variant of variants) {
    for (const target of ['reference', 'hub', 'remote', 'relay', 'sdk-relay', 'proxy'] as const) add(target, variant);
    if (variant === ORCHESTRATED_VARIANT) add('orchestrator', variant);
  }
  return cells;
}

/** How a cell reads in the tables. */
export function describe(cell: Cell): string {
  const info = VARIANT_INFO[cell.variant];
  const on = cell.backend ? ` [${cell.backend}]` : '';
  switch (cell.target) {
    case 'reference':
      return `reference: SDK server ${info.basePath}/v1`;
    case 'hub':
      return `hub${on}: /api/agents/${info.localId}/v1`;
    case 'remote':
      return `remote echo, direct ${info.basePath}/v1`;
    case 'relay':
      return `bare Node relay → remote echo ${info.basePath}/v1`;
    case 'sdk-relay':
      return `SDK relay → remote echo ${info.basePath}/v1`;
    case 'proxy':
      return `proxy${on}: hub → ${info.remoteId}`;
    case 'orchestrator':
      return `orchestrator${on} → ${info.remoteId}`;
  }
}

/** The orchestrator's request text: its card's word, so it routes there, and a number of its own. */
export function orchestratorText(n: number): string {
  return `${ORCHESTRATOR_WORD} #${n}`;
}

export const ORCHESTRATOR_TEXT_EXAMPLE = orchestratorText(1);
