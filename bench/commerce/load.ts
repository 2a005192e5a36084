import autocannon from 'autocannon';
import type { EventEmitter } from 'node:events';
import { latencyStats, LatencyStats, round } from '../a2a-send/load';

export { latencyStats, round };
export type { LatencyStats };

/** One request to send, and how to check its answer. */
export interface Planned {
  path: string;
  /** Latencies are also kept per label (e.g. the query, and its kind). */
  labels: string[];
  /** undefined: a correct answer; otherwise what is wrong with it, as `<kind>: <detail>`. */
  check(status: number, body: string, headers: Headers): string | undefined;
}

/** Response headers, lower-case names. */
export type Headers = Record<string, string>;

export interface LoadOptions {
  origin: string;
  connections: number;
  durationSeconds: number;
  /** Seconds of load before measuring, thrown away (JIT, pools, caches); checked all the same. */
  warmupSeconds: number;
  /** The next request to send (called once per request, in order, by every connection). */
  next(): Planned;
  /**
   * Shop session tokens, one per connection (connection i sends the i-th as X-Session-Token), so
   * the hub's rate limiter keeps a bucket per connection, as for that many agents. None: no
   * header, and every request counts against the one bucket of the benchmark's address.
   */
  sessionTokens?: string[];
}

export interface Measurement {
  /** Correct answers per second over the measured window. */
  requestsPerSecond: number;
  /** ms, request written → response read, exact percentiles over every answer (correct or not). */
  latencyMs: LatencyStats;
  /** The same by label. */
  byLabel: Record<string, LatencyStats & { count: number }>;
  responses: number;
  ok: number;
  /** Wrong answers by kind (`status`, `body`, `headers`, ...), and autocannon's transport errors. */
  errors: Record<string, number>;
  errorTotal: number;
  /** First few wrong answers, shortened. */
  errorSamples: string[];
  /** Response bytes (headers and body) per answer, as autocannon counted them. */
  bytesPerResponse: number;
  elapsedSeconds: number;
  warmup: { responses: number; errors: number };
}

export interface MeasureHooks {
  /** Runs after the warm-up, just before the measured run (e.g. a CPU sample, a profile). */
  beforeMeasured?: () => Promise<unknown>;
  afterMeasured?: () => Promise<unknown>;
}

export async function measure(options: LoadOptions, hooks: MeasureHooks = {}): Promise<Measurement> {
  const warmup = options.warmupSeconds > 0 ? await run(options, options.warmupSeconds) : undefined;
  await hooks.beforeMeasured?.();
  const measured = await run(options, options.durationSeconds);
  await hooks.afterMeasured?.();
  return { ...measured, warmup: { responses: warmup?.responses ?? 0, errors: warmup?.errorTotal ?? 0 } };
}

async function run(options: LoadOptions, durationSeconds: number): Promise<Omit<Measurement, 'warmup'>> {
  const tokens = options.sessionTokens ?? [];
  let connection = 0;
  const latencies: number[] = [];
  const byLabel = new Map<string, number[]>();
  const errors: Record<string, number> = {};
  const errorSamples: string[] = [];
  let ok = 0;
  // autocannon calls onResponse, then emits `response` (with the latency) for the same answer,
  // synchronously: the labels in between are that answer's.
  let lastLabels: string[] = [];

  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: options.origin,
        connections: options.connections,
        pipelining: 1,
        duration: durationSeconds,
        timeout: 10,
        requests: [
          {
            method: 'GET',
            setupRequest: (request, context: { planned?: Planned; token?: string }) => {
              const planned = options.next();
              context.planned = planned;
              request.path = planned.path;
              if (tokens.length > 0) {
                context.token ??= tokens[connection++ % tokens.length];
                request.headers = { ...request.headers, 'x-session-token': context.token };
              }
              return request;
            },
            onResponse: (status, body, context: { planned?: Planned }, headers) => {
              const planned = context.planned;
              lastLabels = planned?.labels ?? [];
              const problem = planned
                ? planned.check(status, body, lowerCase(headers))
                : 'internal: an answer without a request';
              if (problem === undefined) {
                ok++;
                return;
              }
              const kind = problem.slice(0, Math.max(0, problem.indexOf(':'))) || 'other';
              errors[kind] = (errors[kind] ?? 0) + 1;
              if (errorSamples.length < 8) errorSamples.push(`${planned?.path}: ${problem}`.slice(0, 400));
            },
          },
        ],
      },
      (error, finished) => (error ? reject(error as Error) : resolve(finished)),
    );
    // autocannon's tracker emits (client, status, bytes, ms); @types/autocannon omits the client.
    (instance as EventEmitter).on('response', (_client: unknown, _status: number, _bytes: number, ms: number) => {
      latencies.push(ms);
      for (const label of lastLabels) {
        let list = byLabel.get(label);
        if (!list) byLabel.set(label, (list = []));
        list.push(ms);
      }
    });
  });

  if (result.errors > 0) errors.transport = result.errors;
  const errorTotal = Object.values(errors).reduce((a, b) => a + b, 0);
  return {
    requestsPerSecond: round(ok / result.duration, 1),
    latencyMs: latencyStats(latencies),
    byLabel: Object.fromEntries(
      [...byLabel].map(([label, samples]) => [label, { ...latencyStats(samples), count: samples.length }]),
    ),
    responses: latencies.length,
    ok,
    errors,
    errorTotal,
    errorSamples,
    bytesPerResponse: latencies.length > 0 ? round(result.throughput.total / latencies.length, 0) : NaN,
    elapsedSeconds: result.duration,
  };
}

function lowerCase(headers: Record<string, unknown> | undefined): Headers {
  const out: Headers = {};
  for (const [name, value] of Object.entries(headers ?? {})) out[name.toLowerCase()] = String(value);
  return out;
}
