import { CatalogRepository } from '../src/commerce/catalog/catalog.repository';
import { demoProducts } from '../src/commerce/catalog/demo-catalog';
import { startTestApp, TestApp } from './support/test-app';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

interface Manifest {
  schema_version: string;
  site: Json;
  capabilities: { name: string; method: string; endpoint: string }[];
  /** The reference client's reading: URLs. */
  session: { create: string; delete?: string };
}

interface Answer<T> {
  ok: boolean;
  data?: T;
  error?: string;
}

interface RequestOptions {
  headers?: Record<string, string>;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
}

class ClientError extends Error {}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A shopping client that behaves as the reference agents.json client (@agents-protocol/client)
 * does on the wire: it discovers the manifest at /.well-known/agents.json, then /agents.json (an
 * answer that is not 2xx: try the next; none left: "No agents.json found"), and does so again
 * before every call, as an agent that keeps nothing between its steps does; it POSTs to
 * `manifest.session.create` taken as a URL, sends the token as X-Agent-Session, sends cart.update
 * as PATCH, ends the session with a DELETE to `session.create` and a Bearer token, retries a 429
 * after a back-off, and reads `{ok, data, error}` answers (400, 401 and 404 too).
 */
class ReferenceClient {
  /** `METHOD /path` of every request, in order. */
  readonly sent: string[] = [];
  private token: string | undefined;

  constructor(
    private readonly site: string,
    private readonly retry = { times: 3, delayMs: 20 },
  ) {}

  async discover(): Promise<Manifest> {
    const candidates = [`${this.site}/.well-known/agents.json`, `${this.site}/agents.json`];
    for (const url of candidates) {
      const res = await this.fetch(url, { headers: { Accept: 'application/json' } });
      if (!res.ok) continue;
      const manifest = (await res.json()) as Manifest;
      if (!manifest.schema_version || !manifest.site || !Array.isArray(manifest.capabilities)) {
        throw new ClientError(`Invalid agents.json at ${url}: missing required fields`);
      }
      return manifest;
    }
    throw new ClientError(`No agents.json found at ${this.site}. Tried: ${candidates.join(', ')}`);
  }

  async connect(): Promise<{ session_token: string; expires_at: string; capabilities: string[] }> {
    const manifest = await this.discover();
    const session = this.unwrap(
      await this.request<{ session_token: string; expires_at: string; capabilities: string[] }>(
        manifest.session.create,
        'POST',
      ),
      'session',
    );
    this.token = session.session_token;
    return session;
  }

  async disconnect(): Promise<void> {
    const manifest = await this.discover();
    await this.request(manifest.session.create, 'DELETE', { headers: { Authorization: `Bearer ${this.token}` } });
    this.token = undefined;
  }

  search(q: string, limit?: number) {
    return this.call<Json[]>('search', 'GET', { query: { q, limit } });
  }

  detail(id: string) {
    return this.call<Json>('detail', 'GET', {}, id);
  }

  cartAdd(itemId: string, quantity: number) {
    return this.call<Json>('cart.add', 'POST', { body: { item_id: itemId, quantity } });
  }

  cartView() {
    return this.call<Json>('cart.view', 'GET');
  }

  cartUpdate(itemId: string, quantity: number) {
    return this.call<Json>('cart.update', 'PATCH', { body: { item_id: itemId, quantity } });
  }

  cartRemove(itemId: string) {
    return this.call<Json>('cart.remove', 'DELETE', { body: { item_id: itemId } });
  }

  checkout() {
    return this.call<Json>('checkout', 'POST');
  }

  private async call<T>(name: string, method: string, options: RequestOptions = {}, id?: string): Promise<T> {
    const manifest = await this.discover();
    const capability = manifest.capabilities.find((c) => c.name === name);
    if (!capability) throw new ClientError(`Capability '${name}' is not supported by ${this.site}`);
    const endpoint =
      id === undefined ? capability.endpoint : capability.endpoint.replace(':id', encodeURIComponent(id));
    const headers: Record<string, string> = this.token ? { 'X-Agent-Session': this.token } : {};
    return this.unwrap(await this.request<T>(endpoint, method, { ...options, headers }), name);
  }

  private async request<T>(url: string, method: string, options: RequestOptions = {}): Promise<Answer<T>> {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(options.query ?? {})) {
      if (value !== undefined) params.set(key, String(value));
    }
    const query = params.toString();
    const target = query ? `${url}?${query}` : url;
    for (let attempt = 0; attempt <= this.retry.times; attempt++) {
      if (attempt > 0) await sleep(this.retry.delayMs * 2 ** (attempt - 1));
      const res = await this.fetch(target, {
        method,
        headers: { 'Content-Type': 'application/json', Accept: 'application/json', ...options.headers },
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
      });
      if (res.status === 429) continue;
      if (!res.ok && ![400, 401, 404].includes(res.status)) throw new ClientError(`HTTP ${res.status} from ${target}`);
      return (await res.json()) as Answer<T>;
    }
    throw new ClientError('Rate limit exceeded');
  }

  private unwrap<T>(answer: Answer<T>, capability: string): T {
    if (!answer.ok || answer.data === undefined) {
      throw new ClientError(`${capability} failed: ${answer.error ?? 'unknown error'}`);
    }
    return answer.data;
  }

  private fetch(url: string, init: RequestInit): Promise<Response> {
    this.sent.push(`${init.method ?? 'GET'} ${new URL(url).pathname}`);
    return fetch(url, init);
  }
}

describe('the agents.json client as shipped, against the shop (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ COMMERCE_RATE_LIMIT_PER_MIN: '12' });
    const catalog = t.app.get(CatalogRepository);
    if ((await catalog.count()) === 0) await catalog.upsertAll(demoProducts());
  });

  afterAll(async () => t?.close());

  it('connects, shops with its session, hands the checkout to a human and disconnects', async () => {
    const client = new ReferenceClient(t.baseUrl);
    const session = await client.connect();
    expect(session).toMatchObject({
      session_token: expect.any(String),
      capabilities: expect.arrayContaining(['checkout']),
    });

    expect((await client.search('blue mug', 3))[0]).toMatchObject({ id: 'prod_mug_blue', price: 1299 });
    expect(await client.detail('prod_mug_blue')).toMatchObject({ name: 'Blue Ceramic Mug' });
    expect(await client.cartAdd('prod_mug_blue', 2)).toEqual({ item_id: 'prod_mug_blue', quantity: 2, cart_size: 2 });
    await client.cartAdd('prod_beans', 1);
    expect(await client.cartUpdate('prod_mug_blue', 3)).toEqual({ item_id: 'prod_mug_blue', quantity: 3 });
    expect(await client.cartRemove('prod_beans')).toEqual({ item_id: 'prod_beans', removed: true });
    const cart = await client.cartView();
    expect(cart).toMatchObject({ subtotal: 3 * 1299, item_count: 3 });
    expect(cart.items).toEqual([expect.objectContaining({ item_id: 'prod_mug_blue', quantity: 3 })]);

    const checkout = await client.checkout();
    expect(checkout).toMatchObject({ human_handoff: true, checkout_url: expect.stringMatching(/^http/) });
    const page = await fetch(checkout.checkout_url as string);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('38.97 USD');

    await client.disconnect();
    await t.http().get('/.well-known/agents/api/cart/view').set('X-Agent-Session', session.session_token).expect(401);

    // The manifest was found where it was looked for first, before every step.
    const discoveries = client.sent.filter((line) => line === 'GET /.well-known/agents.json');
    expect(discoveries).toHaveLength(10);
    expect(client.sent).not.toContain('GET /agents.json');
    expect(client.sent.filter((line) => line.endsWith('/.well-known/agents/api/session'))).toEqual([
      'POST /.well-known/agents/api/session',
      'DELETE /.well-known/agents/api/session',
    ]);
  });

  it('still finds the shop once its budget is spent: it is told to wait, not that there is no shop', async () => {
    const client = new ReferenceClient(t.baseUrl, { times: 1, delayMs: 10 });
    // Sessions are made by the client's address, as its discovery is: spend that budget.
    let refusal: unknown;
    for (let i = 0; i < 14 && !refusal; i++) await client.connect().catch((error: unknown) => (refusal = error));
    expect(refusal).toBeInstanceOf(ClientError);
    expect((refusal as Error).message).toBe('Rate limit exceeded');
    await expect(client.discover()).resolves.toMatchObject({ schema_version: '1.0' });
    expect(client.sent).not.toContain('GET /agents.json');
  });
});
