/**
 * Reads a V8 .cpuprofile (as written by `--cpu-prof`, DevTools, or this benchmark's --profile)
 * and tells where the time went: by area (a package, a file of src/, Node's internals, GC), by
 * function (self time), and by function including what it called (inclusive time, synchronous
 * stacks only: time after an `await` is counted under whatever resumed it).
 *
 *   node -r ts-node/register/transpile-only bench/a2a-send/profile-summary.ts <file.cpuprofile> [top] [answers]
 */
import { readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}

interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface Share {
  name: string;
  ms: number;
  /** Microseconds per answer, when the number of answers in the profiled window is known. */
  microsPerAnswer?: number;
  /** Percent of the busy (non-idle) time. */
  percent: number;
}

export interface ProfileSummary {
  answers?: number;
  /** Milliseconds sampled, idle excluded. */
  busyMs: number;
  idleMs: number;
  /** Self time put in the nearest caller's part of the request path (see CATEGORIES). */
  byCategory: Share[];
  byArea: Share[];
  bySelf: Share[];
  byInclusive: Share[];
}

const PROJECT_ROOT = resolve(__dirname, '..', '..');

/** Where a frame's code lives: a package, a file of ours, a Node module, or V8 itself. */
export function areaOf(frame: CallFrame): string {
  const url = frame.url;
  if (!url) {
    if (frame.functionName === '(garbage collector)') return '(garbage collector)';
    if (frame.functionName === '(idle)') return '(idle)';
    return frame.functionName.startsWith('(') ? frame.functionName : '(native)';
  }
  if (url.startsWith('node:')) {
    const parts = url.slice('node:'.length).split('/');
    return `node:${parts[0] === 'internal' && parts.length > 2 ? `internal/${parts[1]}` : parts.join('/')}`;
  }
  const path = url.startsWith('file://') ? fileURLToPath(url) : url;
  const nodeModules = path.lastIndexOf('/node_modules/');
  if (nodeModules >= 0) {
    const rest = path.slice(nodeModules + '/node_modules/'.length).split('/');
    return rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
  }
  const local = relative(PROJECT_ROOT, path);
  return local.startsWith('..') ? path : local;
}

/**
 * What part of the request path an area belongs to; undefined for code that only runs on behalf
 * of its caller (event emitters, microtask queues, streams helpers, natives), whose time goes to
 * the nearest caller that has a category.
 */
const CATEGORIES: [string, RegExp][] = [
  ['garbage collection', /^\(garbage collector\)$/],
  ['logging (pino)', /^(pino|pino-std-serializers|@pinojs\/.*|sonic-boom|src\/platform\/logging\/.*)$/],
  ['request id and metrics (HTTP edge)', /^(prom-client|src\/platform\/(metrics\/.*|http\/http-edge\.ts))$/],
  ['async context (AsyncLocalStorage hooks)', /^node:(async_hooks|internal\/async_hooks)$/],
  ['rate limiting (throttler guard)', /^(@nestjs\/throttler|src\/platform\/rate-limit\/.*)$/],
  ['key-value store / Redis client', /^(@redis\/.*|redis|src\/platform\/(kv|redis)\/.*)$/],
  ['API-key auth', /^src\/platform\/auth\/.*$/],
  ['Nest request pipeline', /^(@nestjs\/.*|reflect-metadata|rxjs|src\/platform\/(http|errors)\/.*)$/],
  ['hub A2A routing and preflight', /^src\/a2a\/.*$/],
  ['remote-agent proxying (executor, outbound HTTP)', /^src\/(registry|platform\/net)\/.*$/],
  ['undici (outbound fetch)', /^undici$/],
  ['A2A SDK', /^@a2a-js\/sdk$/],
  ['echo executor', /^bench\/.*$/],
  [
    'express, routing, body parsing',
    /^(express|router|body-parser|raw-body|path-to-regexp|parseurl|type-is|content-type|mime-types|mime-db|media-typer|on-finished|finalhandler|etag|fresh|send|qs|iconv-lite|cookie|vary|depd|statuses|http-errors|encodeurl|escape-html|content-disposition|safe-buffer|setprototypeof)$/,
  ],
  ['Node HTTP server and sockets', /^node:(_http_.*|net|internal\/(http|stream_base_commons|streams)|http)$/],
];

function categoryOf(area: string): string | undefined {
  return CATEGORIES.find(([, pattern]) => pattern.test(area))?.[0];
}

function functionKey(frame: CallFrame): string {
  const name = frame.functionName || '(anonymous)';
  return frame.url ? `${name} ${areaOf(frame)}:${frame.lineNumber + 1}` : name;
}

export function summarize(profile: CpuProfile, top = 20, answers?: number): ProfileSummary {
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const stackKeys = new Map<number, Set<string>>();
  const keysOf = (id: number): Set<string> => {
    let keys = stackKeys.get(id);
    if (keys) return keys;
    const up = parent.get(id);
    keys = new Set(up === undefined ? [] : keysOf(up));
    keys.add(functionKey(nodes.get(id)!.callFrame));
    stackKeys.set(id, keys);
    return keys;
  };

  const categoryCache = new Map<number, string>();
  const categoryOfNode = (id: number): string => {
    let category = categoryCache.get(id);
    if (category) return category;
    category = categoryOf(areaOf(nodes.get(id)!.callFrame));
    if (!category) {
      const up = parent.get(id);
      category = up === undefined ? 'other (V8, natives, Node internals)' : categoryOfNode(up);
    }
    categoryCache.set(id, category);
    return category;
  };

  const area = new Map<string, number>();
  const category = new Map<string, number>();
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  let idle = 0;
  let busy = 0;
  const add = (map: Map<string, number>, key: string, us: number) => map.set(key, (map.get(key) ?? 0) + us);
  profile.samples.forEach((id, i) => {
    // timeDeltas[i] is the time since the previous sample; the next one is what this sample stands for.
    const us = profile.timeDeltas[i + 1] ?? profile.timeDeltas[i] ?? 0;
    const frame = nodes.get(id)!.callFrame;
    if (frame.functionName === '(idle)') {
      idle += us;
      return;
    }
    busy += us;
    add(area, areaOf(frame), us);
    add(category, categoryOfNode(id), us);
    add(self, functionKey(frame), us);
    for (const key of keysOf(id)) if (key !== '(root)') add(inclusive, key, us);
  });
  const shares = (map: Map<string, number>): Share[] =>
    [...map.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, us]) => ({
        name,
        ms: Math.round(us / 1000),
        percent: Math.round((1000 * us) / busy) / 10,
        microsPerAnswer: answers ? Math.round((10 * us) / answers) / 10 : undefined,
      }));
  return {
    answers,
    busyMs: Math.round(busy / 1000),
    idleMs: Math.round(idle / 1000),
    byCategory: shares(category),
    byArea: shares(area),
    bySelf: shares(self),
    byInclusive: shares(inclusive),
  };
}

export function summarizeFile(path: string, top = 20, answers?: number): ProfileSummary {
  return summarize(JSON.parse(readFileSync(path, 'utf8')) as CpuProfile, top, answers);
}

export function formatSummary(summary: ProfileSummary): string {
  const table = (title: string, rows: Share[]) =>
    [
      `  ${title}`,
      ...rows.map(
        (r) =>
          `    ${r.percent.toFixed(1).padStart(5)}%  ${String(r.ms).padStart(6)} ms` +
          `${r.microsPerAnswer === undefined ? '' : `  ${r.microsPerAnswer.toFixed(1).padStart(6)} µs/answer`}  ${r.name}`,
      ),
    ].join('\n');
  return [
    `  busy ${summary.busyMs} ms, idle ${summary.idleMs} ms${summary.answers ? `, ${summary.answers} answers` : ''}`,
    table('by part of the request path', summary.byCategory),
    table('self time by area', summary.byArea),
    table('self time by function', summary.bySelf),
    table('inclusive time by function (synchronous stacks)', summary.byInclusive),
  ].join('\n');
}

if (require.main === module) {
  const [path, top, answers] = process.argv.slice(2);
  if (!path) {
    console.error('usage: profile-summary.ts <file.cpuprofile> [top] [answers in the profiled window]');
    process.exit(2);
  }
  console.log(formatSummary(summarizeFile(path, top ? Number(top) : 30, answers ? Number(answers) : undefined)));
}
