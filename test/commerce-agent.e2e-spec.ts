import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { CatalogRepository } from '../src/commerce/catalog/catalog.repository';
import { ShopCard } from '../src/commerce/agent/shop-card';
import { demoProducts } from '../src/commerce/catalog/demo-catalog';
import { RoutingLog } from '../src/orchestration/routing-log/routing-log';
import { RemoteAgent, startLightsAgent } from './support/remote-agents';
import { homeAssistantBody, registerAgent, startTestApp, TEST_ADMIN_KEY, TestApp } from './support/test-app';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** A v0.3 message/send to the commerce agent with one data part. */
function dataMessage(data: Json, contextId = randomUUID()) {
  return {
    jsonrpc: '2.0',
    id: 1,
    method: 'message/send',
    params: {
      message: { kind: 'message', role: 'user', messageId: randomUUID(), contextId, parts: [{ kind: 'data', data }] },
    },
  };
}

function textOf(message: Json): string {
  return (message.parts as Json[])
    .filter((p) => p.kind === 'text')
    .map((p) => p.text as string)
    .join('');
}

function stepsOf(message: Json): Json[] {
  return (message.parts as Json[]).find((p) => p.kind === 'data')!.data.steps as Json[];
}

describe('the commerce agent (e2e)', () => {
  let t: TestApp;
  let lights: RemoteAgent;

  beforeAll(async () => {
    lights = await startLightsAgent();
    t = await startTestApp({ RATE_LIMIT_CONVERSATION_PER_MIN: '1000', ALLOW_PRIVATE_NETWORK_TARGETS: 'true' });
    const catalog = t.app.get(CatalogRepository);
    if ((await catalog.count()) === 0) await catalog.upsertAll(demoProducts());
    // On PostgreSQL the catalog was empty at start: the card says what it sells from the next check.
    await t.app.get(ShopCard).describe();
  });

  afterAll(async () => {
    await t?.close();
    await lights?.close();
  });

  const converse = async (text: string, conversationId: string) =>
    (
      await t
        .http()
        .post('/api/conversation')
        .set('X-Api-Key', TEST_ADMIN_KEY)
        .send({ text, context: { conversationId }, promptOverride: null })
        .expect(200)
    ).body as Json;

  const direct = async (body: object) =>
    (await t.http().post('/api/agents/commerce/v1').set('X-Api-Key', TEST_ADMIN_KEY).send(body).expect(200))
      .body as Json;

  /** The conversation's routing decisions, once written (the log is written after the answer). */
  const routingLog = async (conversationId: string) => {
    for (let i = 0; ; i++) {
      const log = await t.app.get(RoutingLog).recent('admin', conversationId);
      if (log.length > 0 || i >= 50) return log;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };

  const orders = async () => Number((await t.app.get(DataSource).query(`SELECT count(*) AS n FROM orders`))[0].n);

  it('is listed with its skills', async () => {
    const card = (await t.http().get('/api/agents/commerce/.well-known/agent-card.json').expect(200)).body as Json;
    expect(card.name).toBe('Shop');
    expect((card.skills as Json[]).map((s) => s.id)).toEqual([
      'search',
      'details',
      'add_to_cart',
      'remove_from_cart',
      'view_cart',
      'checkout',
    ]);
    expect(card.defaultInputModes).toEqual(['text/plain', 'application/json']);
    // What the catalog sells, from its products' names ("Electric Kettle", "Dotted Notebook").
    expect(card.description).toMatch(/It sells, among others: .*\bkettle\b/);
    expect(card.description).toMatch(/\bnotebook\b/);
  });

  it('is routed a shopping request by the orchestrator, keeps the cart across turns, and hands checkout to the human', async () => {
    const conversationId = randomUUID().replace(/-/g, '');
    const ordersBefore = await orders();

    const first = await converse('find me a blue mug and add two to my cart', conversationId);
    expect(first.type).toBe('response');
    expect(first.text).toContain('1. Blue Ceramic Mug - 12.99 USD (prod_mug_blue)');
    expect(first.text).toContain('Added 2 × Blue Ceramic Mug to your cart (2 in the cart now)');
    expect(first.text).toContain('Cart: 2 items, subtotal 25.98 USD.');
    const [decision] = await routingLog(conversationId);
    expect(decision.agents).toEqual(['commerce']);

    const second = await converse('add one green tea leaves', conversationId);
    expect(second.text).toContain('Added 1 × Green Tea Leaves');
    const cart = await converse("what's in my cart?", conversationId);
    expect(cart.text).toMatch(/- 2 × Blue Ceramic Mug \(prod_mug_blue\): 25\.98 USD\n- 1 × Green Tea Leaves/);

    const checkout = await converse('check out', conversationId);
    expect(checkout.text).toContain("I can't complete the purchase for you.");
    const url = /open (\S+) and confirm/.exec(checkout.text as string)![1];
    expect(url.startsWith(`${t.baseUrl}/shop/checkout/chk_`)).toBe(true);
    // The agent never orders: only the human's confirm on the page does.
    expect(await orders()).toBe(ordersBefore);
    const page = await t.http().get(new URL(url).pathname).expect(200);
    expect(page.text).toContain('Blue Ceramic Mug');
    expect(page.text).toContain('Green Tea Leaves');
  });

  it.each([
    // The shop's examples mention a kettle; the meaning alone puts it with "boil the kettle".
    ['buy a kettle', 'Electric Kettle'],
    // Only the card's list of what the catalog sells names a speaker.
    ['buy a bluetooth speaker', 'Bluetooth Speaker'],
    // No verb says "buy"; wanting a new one of a thing the shop sells is buying it.
    ['I need a new kettle', 'Electric Kettle'],
  ])('is routed "%s", a thing its card says it sells, whatever the meaning alone says', async (text, product) => {
    const conversationId = randomUUID().replace(/-/g, '');
    const reply = await converse(text, conversationId);
    expect(reply.type).toBe('response');
    expect(reply.text).toContain(product);
    const [decision] = await routingLog(conversationId);
    expect(decision.agents).toEqual(['commerce']);
    expect(decision.reasoning).toContain("which only commerce's card offers for it");
  });

  it('keeps each conversation its own cart', async () => {
    const a = randomUUID().replace(/-/g, '');
    const b = randomUUID().replace(/-/g, '');
    await converse('add 3 fountain pens to my cart', a);
    const other = await converse("what's in my shopping cart?", b);
    expect(other.text).toBe('Your cart is empty.');
    const mine = await converse('show my basket', a);
    expect(mine.text).toContain('3 × Fountain Pen');
  });

  it('routes each intent of a mixed request to its agent', async () => {
    await registerAgent(t, lights.baseUrl, 'lights');
    try {
      const conversationId = randomUUID().replace(/-/g, '');
      const reply = await converse('turn on the kitchen lights and add a teapot to my cart', conversationId);
      expect(reply.text).toContain('Added 1 × Cast Iron Teapot');
      expect(reply.text).toMatch(/kitchen/i);
      const [decision] = await routingLog(conversationId);
      expect([...decision.agents].sort()).toEqual(['commerce', 'lights']);
    } finally {
      await t.http().delete('/api/agents/lights').set('X-Api-Key', TEST_ADMIN_KEY).expect(204);
    }
  });

  it('answers the data-part skills over A2A, with each result as data', async () => {
    const contextId = randomUUID();
    const search = (await direct(dataMessage({ action: 'search', query: 'kettle', limit: 2 }, contextId))).result;
    expect(search.kind).toBe('message');
    expect(stepsOf(search)[0]).toMatchObject({ action: 'search', results: [{ id: 'prod_kettle', price: 5999 }] });

    const added = (await direct(dataMessage({ action: 'add_to_cart', item_id: 'prod_kettle' }, contextId))).result;
    expect(stepsOf(added)[0]).toEqual({ action: 'add_to_cart', item_id: 'prod_kettle', quantity: 1, cart_size: 1 });

    const checkout = (await direct(dataMessage({ action: 'checkout' }, contextId))).result;
    expect(stepsOf(checkout)[0]).toMatchObject({
      action: 'checkout',
      human_handoff: true,
      checkout_url: expect.stringMatching(/\/shop\/checkout\/chk_/),
    });
    const step = stepsOf(checkout)[0];
    expect(step.handoff_url).toBe(step.checkout_url);
  });

  it('says what went wrong in words: unknown items, too many, nothing to refer to, an empty cart', async () => {
    const contextId = randomUUID();
    const unknown = (await direct(dataMessage({ action: 'details', item_id: 'prod_nope' }, contextId))).result;
    expect(textOf(unknown)).toBe('Item not found: prod_nope.');
    const tooMany = (
      await direct(dataMessage({ action: 'add_to_cart', item_id: 'prod_pen', quantity: 999 }, contextId))
    ).result;
    expect(textOf(tooMany)).toMatch(/^quantity: only \d+ in stock/);
    const vague = (await direct(homeAssistantBody('add it to my cart', randomUUID()))).result;
    expect(textOf(vague)).toBe('Which product? Search first, or name it.');
    const empty = (await direct(homeAssistantBody('check out', randomUUID()))).result;
    expect(textOf(empty)).toBe('Your cart is empty: add something before checking out.');
    const nothing = (await direct(homeAssistantBody('purple giraffe', randomUUID()))).result;
    expect(textOf(nothing)).toMatch(/^I found nothing for "purple giraffe"\. .*The shop has: .*kitchen/);
  });

  it('rejects a malformed data part, naming the field', async () => {
    const res = (await direct(dataMessage({ action: 'add_to_cart', item_id: 'prod_pen', quantity: 0 }))).result;
    expect(res).toMatchObject({ kind: 'task', status: { state: 'rejected' } });
    expect(textOf(res.status.message as Json)).toBe(
      'Sorry: Invalid request: quantity must be an integer from 1 to 999',
    );
  });

  it('starts a new cart when the conversation’s session has expired, and says so', async () => {
    const conversationId = randomUUID().replace(/-/g, '');
    await converse('add a fountain pen to my cart', conversationId);
    await t.app.get(DataSource).query(`UPDATE shop_sessions SET expires_at = now() - interval '1 second'
      WHERE id IN (SELECT session_id FROM cart_lines WHERE product_id = 'prod_pen')`);
    const cart = await converse("what's in my cart?", conversationId);
    expect(cart.text).toBe('Your cart is empty.');
    const again = await converse('add a dotted notebook', conversationId);
    expect(again.text).toMatch(/^Your earlier cart had expired, so I started a new one\.\n\nAdded 1 × Dotted Notebook/);
  });
});
