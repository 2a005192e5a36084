import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { DataSource } from 'typeorm';
import { CatalogRepository } from '../src/commerce/catalog/catalog.repository';
import { DEMO_PRODUCTS, demoProducts } from '../src/commerce/catalog/demo-catalog';
import { sha256Hex } from '../src/platform/crypto/sha256';
import { describeInChromium, launchChromium } from './support/chromium';
import { startTestApp, TestApp } from './support/test-app';

/**
 * The human side of checkout in a real browser: Debian's Chromium driven by playwright-core, with
 * JavaScript off (the page must work without it). Where Chromium is missing the suite is skipped
 * with a warning, or fails when SWITCHBOARD_BROWSER_TESTS=required (as .ci/run sets).
 */
const API = '/.well-known/agents/api';
/** Gitignored (.ci/out/ is where CI writes its reports), so the screenshot never lands in git. */
const ARTIFACTS = resolve(__dirname, '..', '.ci', 'out');
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const title = 'the checkout page in Chromium (e2e)';

jest.setTimeout(120_000); // Chromium and the app start slowly on a small CI machine.

/** "12.99 USD": how the page shows an amount in cents, worked out here independently of the app. */
function usd(cents: number): string {
  return `${(cents / 100).toFixed(2)} USD`;
}

interface Line {
  itemId: string;
  name: string;
  quantity: number;
  unit: string;
  lineTotal: string;
}

/** The expected lines from the demo catalog's prices; quantities per item, in the order added. */
function expectedLines(quantities: [string, number][]): { lines: Line[]; total: string; totalCents: number } {
  let totalCents = 0;
  const lines = quantities.map(([itemId, quantity]) => {
    const product = DEMO_PRODUCTS.find((p) => p.id === itemId);
    if (!product) throw new Error(`${itemId} is not in the demo catalog`);
    totalCents += product.priceMinor * quantity;
    return {
      itemId,
      name: product.name,
      quantity,
      unit: usd(product.priceMinor),
      lineTotal: usd(product.priceMinor * quantity),
    };
  });
  return { lines, total: usd(totalCents), totalCents };
}

describeInChromium(title, () => {
  let t: TestApp;
  let browser: Browser;
  let context: BrowserContext;

  beforeAll(async () => {
    t = await startTestApp({ COMMERCE_RATE_LIMIT_PER_MIN: '10000' });
    // The embedded quick start seeds the demo catalog itself; on a real database the test does.
    const catalog = t.app.get(CatalogRepository);
    if ((await catalog.count()) === 0) await catalog.upsertAll(demoProducts());
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  beforeEach(async () => {
    context = await browser.newContext({ javaScriptEnabled: false });
    context.setDefaultTimeout(30_000);
  });

  afterEach(async () => context?.close());

  /** A cart filled through the agents API over HTTP, as an agent would; returns its checkout link. */
  async function agentCart(adds: [string, number][]): Promise<{ sessionToken: string; checkoutUrl: string }> {
    const created = await t.http().post(`${API}/session`).expect(201);
    const sessionToken = created.body.data.session_token as string;
    for (const [item_id, quantity] of adds)
      await t
        .http()
        .post(`${API}/cart/add`)
        .set('Authorization', `Bearer ${sessionToken}`)
        .send({ item_id, quantity })
        .expect(201);
    const checkout = await t.http().post(`${API}/checkout`).set('Authorization', `Bearer ${sessionToken}`).expect(200);
    const checkoutUrl = checkout.body.data.checkout_url as string;
    expect(checkoutUrl.startsWith(`${t.baseUrl}/shop/checkout/`)).toBe(true);
    return { sessionToken, checkoutUrl };
  }

  async function ordersOf(sessionToken: string): Promise<{ id: string; subtotal_minor: string }[]> {
    return t.app
      .get(DataSource)
      .query(
        `SELECT o.id, o.subtotal_minor FROM orders o JOIN shop_sessions s ON s.id = o.session_id WHERE s.token_hash = $1`,
        [sha256Hex(sessionToken)],
      );
  }

  /** Presses a confirm button and waits for the page its POST answers with. */
  async function confirmWith(page: Page, button: Locator): Promise<number> {
    const answer = page.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith('/confirm'));
    await button.click();
    const response = await answer;
    await page.waitForURL((url) => url.pathname.endsWith('/confirm'));
    return response.status();
  }

  /** The order lines table: named by its caption, with column headers, one row per line and a total. */
  async function expectOrderTable(page: Page, lines: Line[], total: string): Promise<void> {
    const table = page.getByRole('main').getByRole('table', { name: 'Order lines' });
    expect(await table.count()).toBe(1);
    expect(await table.getByRole('columnheader').allInnerTexts()).toEqual(['Item', 'Quantity', 'Price', 'Line total']);
    // A header row, one row per line, the total row.
    expect(await table.getByRole('row').count()).toBe(lines.length + 2);
    for (const line of lines) {
      const row = table.getByRole('row').filter({ has: page.getByRole('cell', { name: line.name, exact: true }) });
      expect(await row.count()).toBe(1);
      expect(await row.getByRole('cell').allInnerTexts()).toEqual([
        line.name,
        String(line.quantity),
        line.unit,
        line.lineTotal,
      ]);
    }
    const totalRow = table.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'Total' }) });
    expect(await totalRow.count()).toBe(1);
    expect(await totalRow.getByRole('cell').allInnerTexts()).toEqual([total]);
  }

  /** The page's frame: language, a title, one main landmark with a level-1 heading, no scripts. */
  async function expectDocument(page: Page, heading: string): Promise<void> {
    expect(await page.locator('html').getAttribute('lang')).toBe('en');
    expect(await page.title()).toBe(heading);
    const main = page.getByRole('main');
    expect(await main.count()).toBe(1);
    expect(await main.getByRole('heading', { level: 1 }).allInnerTexts()).toEqual([heading]);
    expect(await page.locator('script').count()).toBe(0);
  }

  it('shows the cart, and confirming records one order however often it is pressed', async () => {
    // Two mugs added in two steps: the page shows one line with the summed quantity.
    const { sessionToken, checkoutUrl } = await agentCart([
      ['prod_mug_blue', 1],
      ['prod_teapot', 1],
      ['prod_mug_blue', 1],
      ['prod_tea_green', 3],
    ]);
    const { lines, total, totalCents } = expectedLines([
      ['prod_mug_blue', 2],
      ['prod_teapot', 1],
      ['prod_tea_green', 3],
    ]);
    expect(total).toBe('111.94 USD');

    const page = await context.newPage();
    const response = await page.goto(checkoutUrl);
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-type']).toBe('text/html; charset=utf-8');
    await expectDocument(page, 'Review your order');
    await expectOrderTable(page, lines, total);
    const confirm = page.getByRole('main').getByRole('button', { name: 'Confirm order' });
    expect(await confirm.count()).toBe(1);
    expect(await confirm.isVisible()).toBe(true);

    mkdirSync(ARTIFACTS, { recursive: true });
    const screenshot = join(ARTIFACTS, 'checkout-page.png');
    await page.screenshot({ path: screenshot, fullPage: true });
    console.log(`Checkout page screenshot: ${screenshot}`);

    // A second tab on the same link, still showing the confirm button: a later double submit.
    const staleTab = await context.newPage();
    expect((await staleTab.goto(checkoutUrl))?.status()).toBe(200);
    const staleConfirm = staleTab.getByRole('button', { name: 'Confirm order' });
    expect(await staleConfirm.count()).toBe(1);
    expect(await ordersOf(sessionToken)).toEqual([]);

    expect(await confirmWith(page, confirm)).toBe(200);
    await expectDocument(page, 'Order confirmed');
    const status = page.getByRole('main').getByRole('status');
    const statusText = await status.innerText();
    const orderId = /Your order (\S+) is recorded/.exec(statusText)?.[1];
    expect(orderId).toMatch(UUID);
    await expectOrderTable(page, lines, total);
    expect(await page.getByRole('button').count()).toBe(0);

    const recorded = await ordersOf(sessionToken);
    expect(recorded).toEqual([{ id: orderId, subtotal_minor: String(totalCents) }]);

    // Submitting the form again from the other tab shows the same order and records nothing new.
    expect(await confirmWith(staleTab, staleConfirm)).toBe(200);
    await expectDocument(staleTab, 'Order confirmed');
    expect(await staleTab.getByRole('status').innerText()).toBe(statusText);
    await expectOrderTable(staleTab, lines, total);

    // Back to the link itself: it now shows the order, with no button to press again.
    const back = await page.goBack();
    expect(back?.status()).toBe(200);
    expect(new URL(page.url()).pathname).toBe(new URL(checkoutUrl).pathname);
    await expectDocument(page, 'Order confirmed');
    expect(await page.getByRole('status').innerText()).toBe(statusText);
    expect(await page.getByRole('button').count()).toBe(0);

    expect(await ordersOf(sessionToken)).toEqual(recorded);
    const [{ count }] = await t.app.get(DataSource).query(`SELECT count(*)::int AS count FROM orders`);
    expect(count).toBe(1);
  });

  it('expires with the session: ended with DELETE session, the link answers 410 and shows no order', async () => {
    const { sessionToken, checkoutUrl } = await agentCart([['prod_pen', 2]]);
    const page = await context.newPage();
    expect((await page.goto(checkoutUrl))?.status()).toBe(200);
    expect(await confirmWith(page, page.getByRole('button', { name: 'Confirm order' }))).toBe(200);
    const [order] = await ordersOf(sessionToken);
    expect(order.id).toMatch(UUID);

    await t.http().delete(`${API}/session`).set('Authorization', `Bearer ${sessionToken}`).expect(200);

    const expired = await page.goto(checkoutUrl);
    expect(expired?.status()).toBe(410);
    await expectDocument(page, 'Checkout link expired');
    expect(await page.getByRole('main').innerText()).toContain(
      'This shopping session has ended. Ask your agent to start again.',
    );
    expect(await page.content()).not.toContain(order.id);
    expect(await page.getByRole('table').count()).toBe(0);
    expect(await page.getByRole('button').count()).toBe(0);
  });

  it('expires with the session: past its expiry the link answers 410, and a stale confirm records nothing', async () => {
    const { sessionToken, checkoutUrl } = await agentCart([['prod_beans', 1]]);
    const staleTab = await context.newPage();
    expect((await staleTab.goto(checkoutUrl))?.status()).toBe(200);
    const staleConfirm = staleTab.getByRole('button', { name: 'Confirm order' });
    expect(await staleConfirm.count()).toBe(1);

    await t.app
      .get(DataSource)
      .query(`UPDATE shop_sessions SET expires_at = now() - interval '1 second' WHERE token_hash = $1`, [
        sha256Hex(sessionToken),
      ]);

    const page = await context.newPage();
    expect((await page.goto(checkoutUrl))?.status()).toBe(410);
    await expectDocument(page, 'Checkout link expired');
    expect(await page.getByRole('main').innerText()).toContain('This shopping session has ended.');
    expect(await page.getByRole('button').count()).toBe(0);

    expect(await confirmWith(staleTab, staleConfirm)).toBe(410);
    await expectDocument(staleTab, 'Checkout link expired');
    expect(await ordersOf(sessionToken)).toEqual([]);
  });

  it('answers an unknown link with 404 and says so', async () => {
    const page = await context.newPage();
    const response = await page.goto(`${t.baseUrl}/shop/checkout/chk_not-a-real-link`);
    expect(response?.status()).toBe(404);
    await expectDocument(page, 'Checkout link not found');
    expect(await page.getByRole('main').innerText()).toContain('This checkout link is not valid.');
  });
});
