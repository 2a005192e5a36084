import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { DataSource } from 'typeorm';
import publishedSchema from './fixtures/agents-json.schema.json';
import { CatalogRepository } from '../src/commerce/catalog/catalog.repository';
import { demoProducts } from '../src/commerce/catalog/demo-catalog';
import { startTestApp, TestApp } from './support/test-app';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const API = '/.well-known/agents/api';

/** The headers every agents.json answer must carry, errors included. */
function expectAgentsHeaders(res: { headers: Record<string, string> }): void {
  expect(res.headers.link).toBe('</.well-known/agents.json>; rel="agents"');
  expect(res.headers['access-control-allow-origin']).toBe('*');
  expect(res.headers['access-control-allow-methods']).toBe('GET, POST, PUT, PATCH, DELETE, OPTIONS');
  expect(res.headers['access-control-allow-headers']).toBe(
    'Content-Type, Authorization, X-Session-Token, X-Agent-Session',
  );
}

describe('the agents.json shop (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ COMMERCE_RATE_LIMIT_PER_MIN: '10000' });
    // The embedded quick start seeds the demo catalog itself; on a real database the test does.
    const catalog = t.app.get(CatalogRepository);
    if ((await catalog.count()) === 0) await catalog.upsertAll(demoProducts());
  });

  afterAll(async () => t?.close());

  async function session(): Promise<string> {
    const res = await t.http().post(`${API}/session`).expect(201);
    return res.body.data.session_token as string;
  }

  describe('discovery', () => {
    it('serves a manifest both dialects read, with absolute endpoints from the API itself', async () => {
      const res = await t.http().get('/.well-known/agents.json').expect(200);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expectAgentsHeaders(res);
      const manifest = res.body as Json;
      expect(manifest).toMatchObject({
        schema_version: '1.0',
        protocol_version: '0.1.0',
        site: { name: 'Switchboard Shop', url: t.baseUrl },
        session: {
          // URLs, as the reference client reads them (it POSTs to `create`, DELETEs it to end).
          create: `${t.baseUrl}${API}/session`,
          delete: `${t.baseUrl}${API}/session`,
          ttl_seconds: 3600,
          endpoint: `${t.baseUrl}${API}/session`,
          ttl: 3600,
        },
        rate_limit: { requests_per_minute: 10000, max_requests_per_minute: 10000 },
      });
      const names = (manifest.capabilities as Json[]).map((c) => c.name);
      expect(names).toEqual([
        'search',
        'browse',
        'detail',
        'cart.add',
        'cart.view',
        'cart.update',
        'cart.remove',
        'checkout',
        'contact',
      ]);
      const detail = (manifest.capabilities as Json[]).find((c) => c.name === 'detail')!;
      expect(detail).toMatchObject({
        method: 'GET',
        endpoint: `${t.baseUrl}${API}/detail/:id`,
        requires_session: false,
      });
      const checkout = (manifest.capabilities as Json[]).find((c) => c.name === 'checkout')!;
      expect(checkout).toMatchObject({ requires_session: true, human_handoff: true });
      // Every endpoint the manifest names answers (none is a 404 route).
      for (const capability of manifest.capabilities as Json[]) {
        const path = new URL((capability.endpoint as string).replace(':id', 'prod_mug_blue')).pathname;
        const method = (capability.method as string).toLowerCase() as 'get' | 'post' | 'put' | 'delete';
        const answer = await t.http()[method](path).send({});
        expect({ path, status: answer.status, body: answer.body }).not.toMatchObject({
          status: 404,
          body: { error: expect.stringMatching(/^Cannot /) },
        });
      }
    });

    it('is valid against the published agents.json schema (additional properties allowed)', async () => {
      const ajv = new Ajv({ allErrors: true });
      addFormats(ajv);
      const validate = ajv.compile(allowingAdditionalProperties(publishedSchema));
      const manifest = (await t.http().get('/.well-known/agents.json').expect(200)).body as Json;
      expect(validate(manifest) ? [] : validate.errors).toEqual([]);
      // The schema itself still bites: the manifest without the schema's own fields fails it.
      const sdkDialectOnly: Json = { ...manifest, protocol_version: '1.0' };
      expect(validate(sdkDialectOnly)).toBe(false);
      expect(validate.errors?.[0]).toMatchObject({ instancePath: '/protocol_version' });
    });

    it('serves agents.txt with the spec field names, pointing to the manifest', async () => {
      const res = await t.http().get('/.well-known/agents.txt').expect(200);
      expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
      expectAgentsHeaders(res);
      // Parsed as the spec says: skip blank and # lines, split on the first ":".
      const fields = new Map<string, string>();
      for (const line of res.text.split('\n')) {
        if (!line.trim() || line.startsWith('#')) continue;
        const colon = line.indexOf(':');
        fields.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
      }
      expect(Object.fromEntries(fields)).toEqual({
        name: 'Switchboard Shop',
        url: t.baseUrl,
        description: expect.any(String),
        capabilities: 'search, browse, detail, cart.add, cart.view, cart.update, cart.remove, checkout, contact',
        'capabilities-url': `${t.baseUrl}/.well-known/agents.json`,
        'agent-api': `${t.baseUrl}${API}`,
        'session-endpoint': `${t.baseUrl}${API}/session`,
        'rate-limit': '10000',
        'session-ttl': '3600',
      });
      expect(res.text).toMatch(/^# checkout: POST \S+\/checkout requires_session human_handoff$/m);
    });

    it('answers /agents.json, where clients look after /.well-known/, with a 404 a browser agent can read', async () => {
      for (const path of ['/agents.json', '/agents.txt']) {
        const res = await t.http().get(path).set('Origin', 'https://agent.example').expect(404);
        expectAgentsHeaders(res);
        expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
        expect(res.body).toEqual({ ok: false, error: expect.any(String) });
        expectAgentsHeaders(await t.http().options(path).set('Origin', 'https://agent.example').expect(204));
      }
      // Outside the site, the hub's own answers stay as they are.
      const elsewhere = await t.http().get('/not-the-shop.json').expect(404);
      expect(elsewhere.headers.link).toBeUndefined();
      expect(elsewhere.headers['access-control-allow-origin']).toBeUndefined();
    });
  });

  describe('catalog', () => {
    it('searches with stemming and partial words, ranked', async () => {
      const mugs = await t.http().get(`${API}/search`).query({ q: 'mugs' }).expect(200);
      expectAgentsHeaders(mugs);
      expect(mugs.body).toMatchObject({ ok: true });
      expect((mugs.body.data as Json[])[0]).toMatchObject({
        id: 'prod_mug_blue',
        price: 1299,
        currency: 'USD',
        price_display: '12.99 USD',
      });
      const partial = await t.http().get(`${API}/search`).query({ q: 'head', limit: 3 }).expect(200);
      expect((partial.body.data as Json[]).map((item) => item.id)).toContain('prod_headphones');
      const ranked = await t.http().get(`${API}/search`).query({ q: 'blue mug' }).expect(200);
      expect(ranked.body.data[0].id).toBe('prod_mug_blue');
      const none = await t.http().get(`${API}/search`).query({ q: 'zzzzqqq' }).expect(200);
      expect(none.body).toEqual({ ok: true, data: [] });
    });

    it('reuses a search answer for a while; writes through the catalog clear it, detail never waits', async () => {
      const teapot = demoProducts().find((product) => product.id === 'prod_teapot')!;
      const stockOf = async (path: string) => {
        const res = await t.http().get(path).expect(200);
        const data = res.body.data as Json | Json[];
        return (Array.isArray(data) ? data.find((item) => item.id === teapot.id) : data)?.stock as number;
      };
      const search = `${API}/search?q=teapot`;
      expect(await stockOf(search)).toBe(teapot.stock);
      try {
        // Another process (an import, another replica) changes the table: search shows it within
        // COMMERCE_SEARCH_CACHE_SECONDS, detail at once.
        await t.app.get(DataSource).query(`UPDATE products SET stock = 3 WHERE id = $1`, [teapot.id]);
        expect(await stockOf(search)).toBe(teapot.stock);
        expect(await stockOf(`${API}/detail/${teapot.id}`)).toBe(3);
        await t.app.get(CatalogRepository).upsertAll([{ ...teapot, stock: 7 }]);
        expect(await stockOf(search)).toBe(7);
      } finally {
        await t.app.get(CatalogRepository).upsertAll([teapot]);
      }
    });

    it('browses by page and category, and details one item', async () => {
      const page = await t.http().get(`${API}/browse`).query({ page: 1, limit: 2, category: 'kitchen' }).expect(200);
      expect(page.body.data).toMatchObject({ total: 4, page: 1, limit: 2 });
      expect(page.body.data.items).toHaveLength(2);
      const second = await t.http().get(`${API}/browse`).query({ page: 2, limit: 2, category: 'kitchen' }).expect(200);
      expect(second.body.data.items.map((i: Json) => i.id)).not.toContain(page.body.data.items[0].id);
      const detail = await t.http().get(`${API}/detail/prod_teapot`).expect(200);
      expect(detail.body.data).toMatchObject({ id: 'prod_teapot', name: 'Cast Iron Teapot', stock: 8 });
    });

    it.each([
      ['an unknown item', 'get', `${API}/detail/prod_nothing`, 404, /Item not found/],
      ['a search without q', 'get', `${API}/search`, 400, /q /],
      ['a limit out of range', 'get', `${API}/search?q=mug&limit=500`, 400, /limit/],
      ['a page that is not a number', 'get', `${API}/browse?page=two`, 400, /page/],
      ['an unknown API route', 'get', `${API}/teleport`, 404, /./],
    ])('answers %s with its status and the error envelope', async (_, method, path, status, message) => {
      const res = await t.http()[method as 'get'](path).expect(status);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expectAgentsHeaders(res);
      expect(res.body).toEqual({ ok: false, error: expect.stringMatching(message) });
    });

    it('answers preflights with 204 and the CORS headers', async () => {
      const res = await t.http().options(`${API}/cart/add`).set('Origin', 'https://agent.example').expect(204);
      expectAgentsHeaders(res);
    });
  });

  describe('sessions and carts', () => {
    it('runs the whole flow: session, add, view, update, remove, checkout, confirm, end', async () => {
      const created = await t.http().post(`${API}/session`).expect(201);
      expect(created.body.data).toMatchObject({
        ttl_seconds: 3600,
        capabilities: expect.arrayContaining(['cart.add']),
      });
      const token = created.body.data.session_token as string;
      expect(new Date(created.body.data.expires_at).getTime()).toBeGreaterThan(Date.now());

      const added = await t
        .http()
        .post(`${API}/cart/add`)
        .set('Authorization', `Bearer ${token}`)
        .send({ item_id: 'prod_mug_blue', quantity: 2, price: 1, name: 'free mug' })
        .expect(201);
      expect(added.body).toEqual({ ok: true, data: { item_id: 'prod_mug_blue', quantity: 2, cart_size: 2 } });
      await t
        .http()
        .post(`${API}/cart/add`)
        .set('X-Session-Token', token)
        .send({ item_id: 'prod_beans', quantity: 1 })
        .expect(201);

      const view = await t.http().get(`${API}/cart/view`).set('X-Agent-Session', token).expect(200);
      expect(view.body.data).toMatchObject({ subtotal: 2 * 1299 + 1599, currency: 'USD', item_count: 3 });
      expect(view.body.data.items[0]).toMatchObject({
        item_id: 'prod_mug_blue',
        name: 'Blue Ceramic Mug',
        unit_price: 1299,
      });

      const updated = await t
        .http()
        .put(`${API}/cart/update`)
        .set('X-Session-Token', token)
        .send({ item_id: 'prod_mug_blue', quantity: 3 })
        .expect(200);
      expect(updated.body.data).toEqual({ item_id: 'prod_mug_blue', quantity: 3 });
      // PATCH too: the reference client sends cart.update as PATCH.
      const patched = await t
        .http()
        .patch(`${API}/cart/update`)
        .set('X-Session-Token', token)
        .send({ item_id: 'prod_beans', quantity: 2 })
        .expect(200);
      expect(patched.body.data).toEqual({ item_id: 'prod_beans', quantity: 2 });
      const removed = await t
        .http()
        .delete(`${API}/cart/remove`)
        .set('X-Session-Token', token)
        .send({ item_id: 'prod_beans' })
        .expect(200);
      expect(removed.body.data).toEqual({ item_id: 'prod_beans', removed: true });
      await t.http().delete(`${API}/cart/remove?item_id=prod_beans`).set('X-Session-Token', token).expect(404);

      const checkout = await t.http().post(`${API}/checkout`).set('X-Session-Token', token).expect(200);
      expect(checkout.body.data).toMatchObject({ human_handoff: true });
      expect(checkout.body.data.handoff_url).toBe(checkout.body.data.checkout_url);
      const pagePath = new URL(checkout.body.data.checkout_url as string).pathname;

      const page = await t.http().get(pagePath).expect(200);
      expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(page.text).toContain('Blue Ceramic Mug');
      expect(page.text).toContain('38.97 USD');
      expect(page.text).toContain(`action="${pagePath}/confirm"`);
      const confirmed = await t.http().post(`${pagePath}/confirm`).expect(200);
      expect(confirmed.text).toContain('Order confirmed');
      const orderId = /order <strong>([0-9a-f-]+)<\/strong>/.exec(confirmed.text)![1];
      const again = await t.http().post(`${pagePath}/confirm`).expect(200);
      expect(again.text).toContain(orderId);
      const [{ count }] = await t.app
        .get(DataSource)
        .query(`SELECT count(*)::int AS count FROM orders WHERE id = $1`, [orderId]);
      expect(count).toBe(1);

      expect((await t.http().delete(`${API}/session`).set('X-Session-Token', token).expect(200)).body).toEqual({
        ok: true,
        data: { ended: true },
      });
      const ended = await t.http().get(`${API}/cart/view`).set('X-Session-Token', token).expect(401);
      expectAgentsHeaders(ended);
      expect(ended.body).toEqual({ ok: false, error: expect.stringMatching(/session/i) });
    });

    it('needs a live session where the manifest says so', async () => {
      const missing = await t.http().get(`${API}/cart/view`).expect(401);
      expect(missing.body).toEqual({ ok: false, error: expect.stringMatching(/session is required/) });
      await t.http().post(`${API}/checkout`).set('Authorization', 'Bearer sst_forged').expect(401);
      const token = await session();
      await t.app
        .get(DataSource)
        .query(`UPDATE shop_sessions SET expires_at = now() - interval '1 second' WHERE expires_at > now()`);
      const expired = await t.http().get(`${API}/cart/view`).set('X-Session-Token', token).expect(401);
      expect(expired.body.error).toMatch(/expired/);
    });

    it('rejects bad cart input naming the field, and unknown items with 404', async () => {
      const token = await session();
      const add = (body: object) => t.http().post(`${API}/cart/add`).set('X-Session-Token', token).send(body);
      expect((await add({ item_id: 'prod_mug_blue', quantity: 0 }).expect(400)).body.error).toMatch(/quantity/);
      expect((await add({ item_id: 'prod_mug_blue', quantity: 1.5 }).expect(400)).body.error).toMatch(/quantity/);
      expect((await add({ item_id: 'prod_mug_blue' }).expect(400)).body.error).toMatch(/quantity/);
      expect((await add({ item_id: 'prod_teapot', quantity: 9 }).expect(400)).body.error).toMatch(
        /quantity: only 8 in stock/,
      );
      expect((await add({ item_id: 'prod_unknown', quantity: 1 }).expect(404)).body.error).toMatch(/Item not found/);
      expect((await add({ quantity: 1 }).expect(400)).body.error).toMatch(/item_id/);
      const malformed = await t
        .http()
        .post(`${API}/cart/add`)
        .set('X-Session-Token', token)
        .set('Content-Type', 'application/json')
        .send('{"item_id":');
      expect(malformed.status).toBe(400);
      expect(malformed.body).toEqual({ ok: false, error: expect.any(String) });
      expectAgentsHeaders(malformed);
      const update = await t
        .http()
        .put(`${API}/cart/update`)
        .set('X-Session-Token', token)
        .send({ item_id: 'prod_pen', quantity: 1 })
        .expect(404);
      expect(update.body.error).toMatch(/not in the cart/);
      const empty = await t.http().post(`${API}/checkout`).set('X-Session-Token', token).expect(400);
      expect(empty.body.error).toMatch(/cart is empty/);
    });

    it('loses nothing when one cart is filled concurrently, and never exceeds the stock', async () => {
      const token = await session();
      const adds = await Promise.all(
        Array.from({ length: 10 }, () =>
          t.http().post(`${API}/cart/add`).set('X-Session-Token', token).send({ item_id: 'prod_teapot', quantity: 1 }),
        ),
      );
      expect(adds.filter((res) => res.status === 201)).toHaveLength(8);
      expect(adds.filter((res) => res.status === 400)).toHaveLength(2);
      const view = await t.http().get(`${API}/cart/view`).set('X-Session-Token', token).expect(200);
      expect(view.body.data.items).toEqual([expect.objectContaining({ item_id: 'prod_teapot', quantity: 8 })]);
    });

    it('stores contact messages and validates them', async () => {
      const sent = await t
        .http()
        .post(`${API}/contact`)
        .send({ name: 'Ada', email: 'ada@example.com', message: 'Hi' })
        .expect(200);
      expect(sent.body).toEqual({ ok: true, data: { sent: true } });
      const bad = await t
        .http()
        .post(`${API}/contact`)
        .send({ name: 'Ada', email: 'not-an-email', message: 'Hi' })
        .expect(400);
      expect(bad.body.error).toMatch(/email/);
      const [{ count }] = await t.app.get(DataSource).query(`SELECT count(*)::int AS count FROM contact_messages`);
      expect(count).toBe(1);
    });

    it('explains expired and unknown checkout links to the human', async () => {
      await t.http().get('/shop/checkout/chk_not-a-real-link').expect(404);
      const token = await session();
      await t
        .http()
        .post(`${API}/cart/add`)
        .set('X-Session-Token', token)
        .send({ item_id: 'prod_pen', quantity: 1 })
        .expect(201);
      const checkout = await t.http().post(`${API}/checkout`).set('X-Session-Token', token).expect(200);
      await t.http().delete(`${API}/session`).set('X-Session-Token', token).expect(200);
      const page = await t
        .http()
        .get(new URL(checkout.body.data.checkout_url as string).pathname)
        .expect(410);
      expect(page.text).toContain('expired');
    });
  });
});

describe('the agents.json rate limit (e2e)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ COMMERCE_RATE_LIMIT_PER_MIN: '3' });
  });
  afterAll(async () => t?.close());

  it('answers 429 with an honest, short Retry-After and the envelope once the budget is spent', async () => {
    for (let i = 0; i < 3; i++) await t.http().get('/.well-known/agents/api/browse').expect(200);
    const limited = await t.http().get('/.well-known/agents/api/browse').expect(429);
    expect(limited.body).toEqual({ ok: false, error: 'Rate limit exceeded' });
    expectAgentsHeaders(limited);
    expect(limited.headers['x-ratelimit-remaining']).toBe('0');
    const retryAfter = Number(limited.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(20);
    expect(Number(limited.headers['x-ratelimit-reset'])).toBeGreaterThanOrEqual(Math.floor(Date.now() / 1000));
  });

  it('never refuses the discovery documents: clients fetch them again before each call', async () => {
    const browse = (token?: string) => {
      const req = t.http().get('/.well-known/agents/api/browse');
      return token ? req.set('X-Session-Token', token) : req;
    };
    const spend = async (token?: string) => {
      let status = 200;
      for (let i = 0; i <= 3 && status !== 429; i++) status = (await browse(token)).status;
      expect(status).toBe(429);
    };
    // The client by its address, as discovery goes, with and without a session token.
    const token = `sst_discovery-${Date.now()}`;
    await spend();
    await spend(token);
    for (const asked of [undefined, token]) {
      for (const path of ['/.well-known/agents.json', '/.well-known/agents.txt']) {
        const req = t.http().get(path);
        const res = await (asked ? req.set('X-Session-Token', asked) : req).expect(200);
        expectAgentsHeaders(res);
        expect(res.headers['x-ratelimit-remaining']).toBeUndefined();
      }
      // The fallback the client tries next is still a 404, never a 429.
      await t.http().get('/agents.json').expect(404);
    }
    // The API stays limited.
    await browse().expect(429);
    await browse(token).expect(429);
  });
});

describe('the agents.json rate limit per session (e2e)', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await startTestApp({ COMMERCE_RATE_LIMIT_PER_MIN: '3' });
  });
  afterEach(async () => t?.close());

  const browse = (token: string) => t.http().get('/.well-known/agents/api/browse').set('X-Session-Token', token);

  it('gives a live session a bucket of its own, and lets exactly the limit through of concurrent requests', async () => {
    // Opening the session is counted by address (1 of 3); the session's own bucket is full.
    const token = (await t.http().post(`${API}/session`).expect(201)).body.data.session_token as string;
    const answers = await Promise.all(Array.from({ length: 12 }, () => browse(token)));
    expect(answers.map((res) => res.status).sort()).toEqual([...Array(3).fill(200), ...Array(9).fill(429)]);
    expect(
      answers
        .filter((res) => res.status === 200)
        .map((res) => res.headers['x-ratelimit-remaining'])
        .sort(),
    ).toEqual(['0', '1', '2']);
    // The address still has its own two.
    await t.http().get('/.well-known/agents/api/browse').expect(200);
  });

  it('counts made-up session tokens by address: they cannot each open a bucket of their own', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await browse(`sst_made-up-${i}-${Date.now()}`)).status);
    expect(statuses.slice(0, 3).every((status) => status !== 429)).toBe(true);
    expect(statuses.slice(3)).toEqual([429, 429]);
  });
});

/** The schema with every `additionalProperties: false` lifted (the "additional properties allowed"). */
function allowingAdditionalProperties(schema: unknown): Json {
  return JSON.parse(JSON.stringify(schema), (key, value: unknown) =>
    key === 'additionalProperties' && value === false ? undefined : value,
  ) as Json;
}
