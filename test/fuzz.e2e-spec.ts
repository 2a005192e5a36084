import fc from 'fast-check';
import { startTestApp, TEST_ADMIN_KEY, TestApp } from './support/test-app';

/**
 * Property: whatever body a client sends to a JSON endpoint, the answer is a client error or a
 * success, never a 5xx, never JSON-RPC -32603, always a JSON body; and the server stays ready.
 * Bodies are valid requests with one part made hostile, hostile JSON values, and text that is
 * not JSON. Seeded (FUZZ_SEED to replay a failure, FUZZ_RUNS for more), bounded to well under a
 * minute per backend; bench/README.md reports its throughput.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 1606);
const RUNS = Number(process.env.FUZZ_RUNS ?? 600);
/** Only endpoints whose path matches (a regular expression), to replay or dig into one. */
const ONLY = new RegExp(process.env.FUZZ_ONLY ?? '');

interface Endpoint {
  path: string;
  /** A body the endpoint accepts; the fuzzer breaks it. */
  seed: Record<string, unknown>;
  method?: 'post' | 'put';
  headers?: Record<string, string>;
}

const message = {
  kind: 'message',
  messageId: 'm-1',
  role: 'user',
  parts: [{ kind: 'text', text: 'turn on the light' }],
};
const v1Message = { messageId: 'm-1', role: 'ROLE_USER', parts: [{ text: 'turn on the light' }] };
const rpc = (method: string, params: unknown) => ({ jsonrpc: '2.0', id: 1, method, params });

const ENDPOINTS: Endpoint[] = [
  { path: '/api/conversation', seed: { text: 'turn on the light', conversation_id: 'c-1' } },
  { path: '/api/agents', seed: { id: 'fuzz', base_url: 'not a url' } },
  { path: '/api/agents/validate', seed: { base_url: 'not a url' } },
  { path: '/api/keys', seed: { name: 'fuzz', scopes: ['messages'] } },
  { path: '/api/agents/orchestrator/v1', seed: rpc('message/send', { message }) },
  { path: '/api/agents/orchestrator/v1', seed: rpc('tasks/get', { id: 'x', historyLength: 1 }) },
  {
    path: '/api/agents/orchestrator/v1',
    seed: rpc('SendMessage', { message: v1Message, configuration: { acceptedOutputModes: ['text/plain'] } }),
    headers: { 'A2A-Version': '1.0' },
  },
  {
    path: '/api/agents/orchestrator/json/v1/message:send',
    seed: { message: v1Message },
    headers: { 'A2A-Version': '1.0' },
  },
  { path: '/api/agents/orchestrator/json/v1/message:send', seed: { message } },
  { path: '/a2a/lucia-orchestrator', seed: rpc('message/send', { message }) },
  { path: '/tasks', seed: rpc('tasks.create', { name: 'x', inputs: { a: 1 }, priority: 1 }) },
  { path: '/tasks', seed: rpc('tasks.list', { limit: 5, offset: 0, status: 'pending' }) },
  { path: '/', seed: rpc('tasks.get', { task_id: 'x' }) },
  { path: '/.well-known/agents/api/cart/add', seed: { item_id: 'prod_1', quantity: 1 } },
  { path: '/.well-known/agents/api/contact', seed: { name: 'a', email: 'a@example.com', message: 'hi' } },
  {
    path: '/mcp',
    seed: rpc('initialize', {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 'fuzz', version: '1' },
    }),
    headers: { Accept: 'application/json, text/event-stream' },
  },
];

/** Values a careless or hostile client puts where something else belongs. */
const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(
    null,
    true,
    0,
    -1,
    1e20,
    -1e308,
    1.5,
    '',
    ' ',
    'a\u0000b',
    '\ud800',
    'x\udfff',
    '😀',
    [],
    {},
    [null],
    [[]],
    { constructor: { a: 1 } },
    { __proto__: { a: 1 } },
    { toString: 1 },
    'x'.repeat(5000),
  ),
  fc.integer({ min: 70, max: 3000 }).map((depth) => JSON.parse(`${'['.repeat(depth)}${']'.repeat(depth)}`) as unknown),
  fc.jsonValue({ maxDepth: 4 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
);

/** A copy of `seed` with the value at one path (existing or new) replaced. */
function replaced(seed: unknown, path: (string | number)[], value: unknown): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path;
  const base = seed !== null && typeof seed === 'object' ? seed : {};
  const copy = (Array.isArray(base) ? [...(base as unknown[])] : { ...base }) as Record<string | number, unknown>;
  copy[head] = replaced((base as Record<string | number, unknown>)[head], rest, value);
  return copy;
}

/** Every path into a JSON value, the root included. */
function pathsOf(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  const paths = [prefix];
  if (value !== null && typeof value === 'object') {
    for (const [key, member] of Object.entries(value)) {
      paths.push(...pathsOf(member, [...prefix, Array.isArray(value) ? Number(key) : key]));
    }
  }
  return paths;
}

const body = (endpoint: Endpoint): fc.Arbitrary<string> =>
  fc.oneof(
    // The seed with one value made hostile (or a new member added).
    fc
      .tuple(fc.constantFrom(...pathsOf(endpoint.seed)), fc.option(fc.string({ maxLength: 8 })), hostileValue)
      .map(([path, extra, value]) => JSON.stringify(replaced(endpoint.seed, extra ? [...path, extra] : path, value))),
    // Any JSON document.
    hostileValue.map((value) => JSON.stringify(value) ?? 'null'),
    // The seed cut short, or text that is not JSON.
    fc.nat().map((n) => JSON.stringify(endpoint.seed).slice(0, n % JSON.stringify(endpoint.seed).length)),
    fc.string({ maxLength: 40 }),
  );

describe('fuzz: hostile bodies to every JSON endpoint (e2e)', () => {
  let t: TestApp;
  const sent = { bodies: 0, started: 0 };

  beforeAll(async () => {
    t = await startTestApp({
      RATE_LIMIT_REGISTRY_PER_MIN: '1000000',
      RATE_LIMIT_CONVERSATION_PER_MIN: '1000000',
      RATE_LIMIT_TASKS_PER_MIN: '1000000',
      COMMERCE_RATE_LIMIT_PER_MIN: '1000000',
      OUTBOUND_TIMEOUT_MS: '300',
      MAX_BODY_BYTES: '65536',
    });
  });
  afterAll(async () => {
    if (sent.bodies) {
      const ms = performance.now() - sent.started;
      process.stdout.write(
        `fuzz: ${sent.bodies} bodies in ${Math.round(ms)} ms (${Math.round((sent.bodies / ms) * 1000)}/s)\n`,
      );
    }
    await t?.close();
  });

  it('answers every body with a JSON client error or a success, and stays ready', async () => {
    sent.started = performance.now();
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...ENDPOINTS.filter((e) => ONLY.test(e.path))).chain((endpoint) =>
          fc.record({
            endpoint: fc.constant(endpoint),
            body: body(endpoint),
            version: fc.constantFrom(undefined, '1.0', '0.3', '0.5', 'x'),
          }),
        ),
        async ({ endpoint, body, version }) => {
          const agent = t.http();
          let request = agent[endpoint.method ?? 'post'](endpoint.path)
            .set('X-Api-Key', TEST_ADMIN_KEY)
            .set('Content-Type', 'application/json');
          for (const [name, value] of Object.entries({ ...endpoint.headers })) request = request.set(name, value);
          if (version !== undefined) request = request.set('A2A-Version', version);
          const res = await request.send(body);
          sent.bodies++;
          const what = `${endpoint.path} ${body.slice(0, 300)} → ${res.status} ${res.text.slice(0, 300)}`;
          if (res.status >= 500) throw new Error(`5xx: ${what}`);
          if (res.text.length > 0 && res.status !== 202) {
            expect(res.headers['content-type']).toMatch(/json|event-stream/);
          }
          if (res.text.includes('-32603')) throw new Error(`JSON-RPC internal error: ${what}`);
        },
      ),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
    await t.http().get('/health/ready').expect(200);
  }, 120_000);
});
