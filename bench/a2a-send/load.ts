import autocannon from 'autocannon';
import type { EventEmitter } from 'node:events';
import { AnswerKind, hasRateLimitHeaders, isEcho } from './answers';
import { ECHO_PREFIX } from './echo-executors';

/** Where to send `message/send`, and with which headers (never `A2A-Version`: the v0.3 wire format). */
export interface LoadTarget {
  /** http://127.0.0.1:<port> */
  origin: string;
  /** The JSON-RPC endpoint's path. */
  path: string;
  headers: Record<string, string>;
  /** Expect X-RateLimit-* headers on every answer (the hub's limiter counted the request). */
  rateLimited: boolean;
  /** The text of request number `n` (default: "hello from the benchmark #n"); the answer must echo it. */
  text?: (n: number) => string;
  /** What the answer must be (default `message`): see answers.ts. */
  answer?: AnswerKind;
}

export interface LoadOptions {
  connections: number;
  /** Seconds measured. */
  durationSeconds: number;
  /** Seconds of load before measuring, thrown away (JIT, connection pools, caches). */
  warmupSeconds: number;
  /** Requests per second in all (autocannon's overallRate); undefined: as fast as the connections go. */
  rate?: number;
}

export interface LatencyStats {
  /** Milliseconds, from the request's first byte written to the response's last byte read. */
  p50: number;
  p90: number;
  p99: number;
  mean: number;
  max: number;
}

export interface Measurement {
  /** Correct answers per second over the measured window. */
  requestsPerSecond: number;
  latencyMs: LatencyStats;
  /** Requests answered in the measured window (correct or not). */
  responses: number;
  /** Answers that were HTTP 200 and the echo of the text sent (and, where expected, rate-limited). */
  ok: number;
  errors: ErrorCounts;
  /** First few wrong answers, shortened, to see what went wrong. */
  errorSamples: string[];
  /** Seconds autocannon measured for. */
  elapsedSeconds: number;
  warmup: { responses: number; errors: number };
}

export interface ErrorCounts {
  /** Any answer but HTTP 200. */
  status: number;
  /** HTTP 200 whose body is not the expected echo (e.g. a JSON-RPC error, or a task not completed). */
  body: number;
  /** A hub answer without X-RateLimit-* headers. */
  rateLimitHeaders: number;
  /** Socket errors and timeouts, as autocannon counts them. */
  transport: number;
  total: number;
}

let sequence = 0;

export interface MeasureHooks {
  /** Runs after the warm-up, just before the measured run (e.g. starts a CPU profile). */
  beforeMeasured?: () => Promise<unknown>;
  afterMeasured?: () => Promise<unknown>;
}

/** Warm-up, then the measured run, both with every answer checked. */
export async function measureWith(
  target: LoadTarget,
  options: LoadOptions,
  hooks: MeasureHooks = {},
): Promise<Measurement> {
  const warmup = options.warmupSeconds > 0 ? await run(target, options, options.warmupSeconds) : undefined;
  await hooks.beforeMeasured?.();
  const measured = await run(target, options, options.durationSeconds);
  await hooks.afterMeasured?.();
  return {
    ...measured,
    warmup: { responses: warmup?.responses ?? 0, errors: warmup?.errors.total ?? 0 },
  };
}

async function run(
  target: LoadTarget,
  { connections, rate }: Pick<LoadOptions, 'connections' | 'rate'>,
  durationSeconds: number,
): Promise<Omit<Measurement, 'warmup'>> {
  const latencies: number[] = [];
  const errors: ErrorCounts = { status: 0, body: 0, rateLimitHeaders: 0, transport: 0, total: 0 };
  const errorSamples: string[] = [];
  let ok = 0;
  const answer = target.answer ?? 'message';
  const fail = (kind: keyof Omit<ErrorCounts, 'total' | 'transport'>, detail: string) => {
    errors[kind]++;
    if (errorSamples.length < 5) errorSamples.push(`${kind}: ${detail.slice(0, 300)}`);
  };

  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: target.origin,
        connections,
        ...(rate === undefined ? {} : { overallRate: rate }),
        pipelining: 1,
        duration: durationSeconds,
        timeout: 10,
        headers: { 'content-type': 'application/json', ...target.headers },
        requests: [
          {
            method: 'POST',
            path: target.path,
            // A new id and text per request, so no answer can pass for another's.
            setupRequest: (request, context: { expected?: string; id?: number }) => {
              const id = ++sequence;
              const text = target.text ? target.text(id) : `hello from the benchmark #${id}`;
              context.id = id;
              context.expected = `${ECHO_PREFIX}${text}`;
              request.body = JSON.stringify({
                jsonrpc: '2.0',
                id,
                method: 'message/send',
                params: {
                  message: { kind: 'message', messageId: `bench-${id}`, role: 'user', parts: [{ kind: 'text', text }] },
                },
              });
              return request;
            },
            onResponse: (status, body, context: { expected?: string; id?: number }, headers) => {
              if (status !== 200) return fail('status', `HTTP ${status} ${body}`);
              if (!isEcho(answer, body, context.id, context.expected)) return fail('body', body);
              if (target.rateLimited && !hasRateLimitHeaders(headers)) return fail('rateLimitHeaders', body);
              ok++;
            },
          },
        ],
      },
      (error, finished) => (error ? reject(error as Error) : resolve(finished)),
    );
    // autocannon's tracker emits (client, status, bytes, ms); @types/autocannon omits the client.
    (instance as EventEmitter).on('response', (_client: unknown, _status: number, _bytes: number, ms: number) => {
      latencies.push(ms);
    });
  });

  errors.transport = result.errors;
  errors.total = errors.status + errors.body + errors.rateLimitHeaders + errors.transport;
  return {
    requestsPerSecond: round(ok / result.duration, 1),
    latencyMs: latencyStats(latencies),
    responses: latencies.length,
    ok,
    errors,
    errorSamples,
    elapsedSeconds: result.duration,
  };
}

/** Exact percentiles (nearest rank) from every sample, at microsecond resolution. */
export function latencyStats(samples: number[]): LatencyStats {
  if (samples.length === 0) return { p50: NaN, p90: NaN, p99: NaN, mean: NaN, max: NaN };
  const sorted = Float64Array.from(samples).sort();
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
  const sum = sorted.reduce((a, b) => a + b, 0);
  return {
    p50: round(at(50), 3),
    p90: round(at(90), 3),
    p99: round(at(99), 3),
    mean: round(sum / sorted.length, 3),
    max: round(sorted[sorted.length - 1], 3),
  };
}

export function round(value: number, digits: number): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}
