import express from 'express';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { provisionBackends, TestBackends } from './support/backends';
import { RemoteAgent, startLightsAgent } from './support/remote-agents';
import { ServerProcess } from './support/server-process';
import { TEST_ADMIN_KEY } from './support/test-app';

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  attributes?: { key: string; value: { stringValue?: string; intValue?: string | number } }[];
}

/** An OTLP/HTTP (JSON) trace collector that keeps every span it is sent. */
async function startCollector(): Promise<{ url: string; spans: OtlpSpan[]; close(): Promise<void> }> {
  const spans: OtlpSpan[] = [];
  const app = express();
  app.post('/v1/traces', express.json({ limit: '10mb' }), (req, res) => {
    const body = req.body as { resourceSpans?: { scopeSpans?: { spans?: OtlpSpan[] }[] }[] };
    for (const resource of body.resourceSpans ?? [])
      for (const scope of resource.scopeSpans ?? []) spans.push(...(scope.spans ?? []));
    res.json({});
  });
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

const attribute = (span: OtlpSpan, key: string) => {
  const value = span.attributes?.find((a) => a.key === key)?.value;
  return value?.stringValue ?? value?.intValue;
};

/** The server as users run it, with OTEL_EXPORTER_OTLP_ENDPOINT set. */
describe('OpenTelemetry tracing (e2e)', () => {
  let backends: TestBackends;
  let collector: Awaited<ReturnType<typeof startCollector>>;
  let lights: RemoteAgent;
  let server: ServerProcess;

  beforeAll(async () => {
    [backends, collector, lights] = await Promise.all([provisionBackends(), startCollector(), startLightsAgent()]);
    server = await ServerProcess.start({
      ...backends.env,
      ADMIN_API_KEY: TEST_ADMIN_KEY,
      ALLOW_PRIVATE_NETWORK_TARGETS: 'true',
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_BSP_SCHEDULE_DELAY: '100',
    });
    await server.ready(60_000);
  }, 90_000);

  afterAll(async () => {
    await server?.stop('SIGKILL');
    await Promise.all([backends?.cleanup(), collector?.close(), lights?.close()]);
  });

  it('traces a conversation from the HTTP request through routing and the agent call to the remote agent', async () => {
    const api = (path: string, init: RequestInit = {}) =>
      fetch(`${server.baseUrl}${path}`, {
        ...init,
        headers: { 'X-Api-Key': TEST_ADMIN_KEY, 'Content-Type': 'application/json', ...init.headers },
      });
    expect(
      (await api('/api/agents', { method: 'POST', body: JSON.stringify({ base_url: lights.baseUrl }) })).status,
    ).toBe(201);
    const answer = await api('/api/conversation', {
      method: 'POST',
      body: JSON.stringify({
        text: 'turn on the porch lights',
        context: { conversationId: null },
        promptOverride: null,
      }),
    });
    expect(answer.status).toBe(200);

    const lightsPort = new URL(lights.baseUrl).port;
    const find = () => {
      const call = collector.spans.find(
        (s) => s.name === 'agent.call' && attribute(s, 'switchboard.agent_id') === 'lights',
      );
      const trace = call ? collector.spans.filter((s) => s.traceId === call.traceId) : [];
      const remote = trace.find((s) => String(attribute(s, 'url.full') ?? '').includes(`:${lightsPort}/`));
      // The incoming request's span ends after its answer is sent, so it may reach the collector last.
      const incoming = trace.find(
        (s) => attribute(s, 'http.route') === '/api/conversation' || attribute(s, 'url.path') === '/api/conversation',
      );
      return { call, trace, remote, incoming };
    };
    for (let i = 0; i < 100; i++) {
      const spans = find();
      if (spans.remote && spans.incoming) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const { call, trace, remote, incoming } = find();
    expect(call).toBeDefined();
    expect(remote).toBeDefined();
    const byId = new Map(trace.map((s) => [s.spanId, s]));
    const ancestors = (span: OtlpSpan): string[] => {
      const names: string[] = [];
      for (let parent = byId.get(span.parentSpanId ?? ''); parent; parent = byId.get(parent.parentSpanId ?? ''))
        names.push(parent.name);
      return names;
    };
    // The remote request is made inside the agent call, which runs inside the incoming request.
    expect(ancestors(remote!)).toContain('agent.call');
    expect(trace.map((s) => s.name)).toContain('orchestrator.route');
    expect(incoming).toBeDefined();
    expect(ancestors(call!)).toContain(incoming!.name);

    const health = (await (await api('/internal/orchestration/health')).json()) as { telemetry: { tracing: unknown } };
    expect(health.telemetry.tracing).toEqual({ enabled: true, exporter: 'otlp', endpoint: collector.url });
  });
});
