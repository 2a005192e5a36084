import type { NodeSDK } from '@opentelemetry/sdk-node';

let sdk: NodeSDK | undefined;

/** Where traces go, without credentials (for logs and the health report); undefined: tracing is off. */
export function tracingEndpoint(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const raw = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || env.OTEL_EXPORTER_OTLP_ENDPOINT;
  if (!raw || env.OTEL_SDK_DISABLED === 'true' || env.OTEL_TRACES_EXPORTER === 'none') return undefined;
  try {
    const url = new URL(raw);
    return `${url.protocol}//${url.host}${url.pathname === '/' ? '' : url.pathname}`;
  } catch {
    return raw.replace(/\/\/[^@/]*@/, '//');
  }
}

/**
 * OpenTelemetry tracing, on when OTEL_EXPORTER_OTLP_ENDPOINT (or ..._TRACES_ENDPOINT) is set:
 * the SDK's OTLP exporter, configured by the standard OTEL_* variables (protocol, headers,
 * sampler, service name - default "switchboard"), with spans for incoming and outgoing HTTP,
 * fetch (A2A clients, webhooks, the LLM router), PostgreSQL and gRPC, plus the orchestrator's
 * own. Must run before those modules load: main.ts imports ./register first.
 */
export function startTracing(): boolean {
  if (sdk || !tracingEndpoint()) return false;
  process.env.OTEL_SERVICE_NAME ??= 'switchboard';
  // Metrics are Prometheus' (/metrics) and logs pino's: the SDK exports traces only.
  process.env.OTEL_METRICS_EXPORTER ??= 'none';
  process.env.OTEL_LOGS_EXPORTER ??= 'none';
  // Loaded only when tracing is on: a server without it pays nothing for the SDK.
  /* eslint-disable @typescript-eslint/no-require-imports */
  const { NodeSDK } = require('@opentelemetry/sdk-node') as typeof import('@opentelemetry/sdk-node');
  const { HttpInstrumentation } =
    require('@opentelemetry/instrumentation-http') as typeof import('@opentelemetry/instrumentation-http');
  const { UndiciInstrumentation } =
    require('@opentelemetry/instrumentation-undici') as typeof import('@opentelemetry/instrumentation-undici');
  const { PgInstrumentation } =
    require('@opentelemetry/instrumentation-pg') as typeof import('@opentelemetry/instrumentation-pg');
  const { GrpcInstrumentation } =
    require('@opentelemetry/instrumentation-grpc') as typeof import('@opentelemetry/instrumentation-grpc');
  /* eslint-enable @typescript-eslint/no-require-imports */
  sdk = new NodeSDK({
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (req) => /^\/(health|metrics)(\/|$|\?)/.test(req.url ?? ''),
      }),
      new UndiciInstrumentation(),
      new PgInstrumentation({ requireParentSpan: true }),
      new GrpcInstrumentation(),
    ],
  });
  sdk.start();
  return true;
}

/** Sends the spans still buffered; at exit. */
export async function stopTracing(): Promise<void> {
  await sdk?.shutdown().catch(() => undefined);
  sdk = undefined;
}
