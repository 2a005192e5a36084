import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { source as axeSource } from 'axe-core';
import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import { describeInChromium, launchChromium } from './support/chromium';
import { RemoteAgent, startLightsAgent, startThermostatAgent } from './support/remote-agents';
import { registerAgent, startTestApp, TEST_ADMIN_KEY, TestApp } from './support/test-app';

/**
 * The operator console in a real browser: Debian's Chromium driven by playwright-core against a
 * real hub serving console/dist at /console, with SDK-built remote agents. Where Chromium is
 * missing the suite is skipped with a warning, or fails when SWITCHBOARD_BROWSER_TESTS=required
 * (as .ci/run sets). Screenshots go to $CONSOLE_SCREENSHOTS or .ci/out/console (gitignored).
 */
const ROOT = resolve(__dirname, '..');
const DIST = join(ROOT, 'console', 'dist');
const SCREENSHOTS = process.env.CONSOLE_SCREENSHOTS ?? join(ROOT, '.ci', 'out', 'console');
const MAX_JS_GZIP_BYTES = 300 * 1024;

const title = 'the operator console in Chromium (e2e)';

jest.setTimeout(180_000);

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

let built = false;

/** Builds the console (tsc + vite) as `npm start` does, once per run, so the test serves what it checks. */
function buildConsole(): void {
  if (built) return;
  execFileSync('npm', ['run', '-s', 'build', '-w', 'console'], { cwd: ROOT, stdio: 'pipe', timeout: 120_000 });
  built = true;
}

/** Every JavaScript file of the build, gzipped. */
function gzippedJsBytes(): { total: number; files: Record<string, number> } {
  const assets = join(DIST, 'assets');
  const files: Record<string, number> = {};
  for (const name of readdirSync(assets).filter((f) => f.endsWith('.js')))
    files[name] = gzipSync(readFileSync(join(assets, name)), { level: 9 }).length;
  return { total: Object.values(files).reduce((a, b) => a + b, 0), files };
}

describe('the console build', () => {
  beforeAll(buildConsole);

  it('ships under 300 kB of JavaScript, gzipped', () => {
    const { total, files } = gzippedJsBytes();
    console.log(`Console JavaScript: ${(total / 1024).toFixed(1)} kB gzipped (${JSON.stringify(files)})`);
    expect(total).toBeGreaterThan(0);
    expect(total).toBeLessThan(MAX_JS_GZIP_BYTES);
  });

  it('has no inline script or style in its page (the hub serves it under a strict CSP)', () => {
    const html = readFileSync(join(DIST, 'index.html'), 'utf8');
    expect(html).toContain('<script type="module" crossorigin src="/console/assets/');
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(html).not.toMatch(/<style|\sstyle=/);
  });
});

describeInChromium(title, () => {
  let t: TestApp;
  let lights: RemoteAgent;
  let thermostat: RemoteAgent;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let operatorKey: string;
  const cspViolations: string[] = [];
  const pageErrors: string[] = [];

  /** axe-core in the page (evaluated over CDP, which the page's CSP does not govern): no serious or critical violations. */
  async function expectAccessible(screen: string): Promise<void> {
    await page.evaluate(axeSource);
    // Page code as a string: the test's TypeScript has no DOM types.
    const violations = await page.evaluate<AxeViolation[]>('axe.run(document).then((r) => r.violations)');
    const bad = violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${screen}: ${v.id} (${v.impact}) ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
    expect(bad).toEqual([]);
  }

  async function screenshot(name: string): Promise<void> {
    await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
  }

  async function open(screen: string): Promise<void> {
    await page.getByRole('navigation', { name: 'Screens' }).getByRole('link', { name: screen, exact: true }).click();
    await page.getByRole('heading', { level: 1, name: screen, exact: true }).waitFor();
  }

  const main = () => page.getByRole('main');

  beforeAll(async () => {
    buildConsole();
    mkdirSync(SCREENSHOTS, { recursive: true });
    [lights, thermostat] = await Promise.all([startLightsAgent(), startThermostatAgent()]);
    t = await startTestApp({
      ALLOW_PRIVATE_NETWORK_TARGETS: 'true',
      RATE_LIMIT_CONVERSATION_PER_MIN: '1000',
      RATE_LIMIT_REGISTRY_PER_MIN: '10000',
      RATE_LIMIT_TASKS_PER_MIN: '10000',
    });
    // The thermostat (which asks before it acts) is registered over the API; the lights through the console.
    await registerAgent(t, thermostat.baseUrl, 'thermostat');
    // The operator signs in with a key of their own, which the test later revokes from the console.
    const created = await t
      .http()
      .post('/api/keys')
      .set('X-Api-Key', TEST_ADMIN_KEY)
      .send({ name: 'console-operator', scopes: ['admin'] })
      .expect(201);
    operatorKey = created.body.key as string;
    browser = await launchChromium();
    context = await browser.newContext({ baseURL: t.baseUrl, viewport: { width: 1280, height: 900 } });
    context.setDefaultTimeout(20_000);
    page = await context.newPage();
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
    });
    page.on('pageerror', (error) => pageErrors.push(error.message));
  });

  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await Promise.all([lights?.close(), thermostat?.close()]);
  });

  afterEach(() => {
    // The console runs under the hub's strict CSP without tripping it, and without script errors.
    expect(cspViolations).toEqual([]);
    expect(pageErrors).toEqual([]);
  });

  it('serves the console at /console with a strict CSP, and / sends a browser there', async () => {
    const served = await t.http().get('/console/').expect(200);
    expect(served.headers['content-type']).toMatch(/^text\/html/);
    const csp = String(served.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    await page.goto('/');
    expect(new URL(page.url()).pathname).toBe('/console/');
  });

  it('signs in with a key, refusing a wrong one, and keeps the key nowhere in the browser', async () => {
    await page.goto('/console/');
    await page.getByRole('heading', { level: 1, name: 'Sign in to Switchboard' }).waitFor();
    await expectAccessible('sign-in');
    await screenshot('01-sign-in');

    await page.getByLabel('API key').fill('wrong-key-wrong-key-wrong-key-wrong');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').waitFor();
    expect(await page.getByRole('alert').innerText()).not.toBe('');

    await page.getByLabel('API key').fill(operatorKey);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('Signed in as').waitFor();
    expect(await page.getByText('Signed in as').innerText()).toContain('console-operator');
    const nav = await page.getByRole('navigation', { name: 'Screens' }).getByRole('link').allInnerTexts();
    expect(nav).toEqual(['Agents', 'Talk', 'Routing log', 'Task trees', 'Keys', 'Health']);

    const stored = await page.evaluate<{ local: string; session: string; cookie: string }>(
      '({ local: JSON.stringify({ ...localStorage }), session: JSON.stringify({ ...sessionStorage }), cookie: document.cookie })',
    );
    expect(stored.local).not.toContain(operatorKey);
    expect(stored.session).not.toContain(operatorKey);
    // The session cookie is HttpOnly: scripts do not see it.
    expect(stored.cookie).not.toContain('sb_console');
    const cookies = await context.cookies();
    const session = cookies.find((c) => c.name === 'sb_console');
    expect(session).toMatchObject({ httpOnly: true, sameSite: 'Strict' });
    expect(session?.value).not.toContain(operatorKey);
  });

  it('registers a remote agent by URL, showing the validation report before saving', async () => {
    await open('Agents');
    await main().getByRole('heading', { name: 'Orchestrator' }).waitFor();
    await page.getByLabel('Agent base URL').fill(lights.baseUrl);
    await page.getByRole('button', { name: 'Validate' }).click();
    const report = main().locator('.report');
    await report.getByRole('heading', { name: 'Validation report' }).waitFor();
    const reportText = await report.innerText();
    expect(reportText).toMatch(/passed|warnings/);
    expect(reportText).toContain('Lights');
    expect(reportText).toContain(`${lights.baseUrl}/.well-known/agent-card.json`);
    // Nothing is saved by validating.
    await t.http().get('/api/agents/lights').set('X-Api-Key', TEST_ADMIN_KEY).expect(404);
    await expectAccessible('agents (validation report)');
    await screenshot('02-agents-validation');

    await page.getByRole('button', { name: 'Register Lights' }).click();
    await page.getByText('Registered Lights as lights.').waitFor();
    const record = await t.http().get('/api/agents/lights').set('X-Api-Key', TEST_ADMIN_KEY).expect(200);
    expect(record.body).toMatchObject({ kind: 'remote', base_url: expect.stringContaining(lights.baseUrl) });

    const item = main()
      .getByRole('listitem')
      .filter({ has: page.getByRole('heading', { name: /^Lights/ }) });
    await item.waitFor();
    const itemText = await item.innerText();
    expect(itemText).toContain('Lights control');
    expect(itemText).toContain('connected');
    expect(itemText).toContain('JSONRPC');
    await expectAccessible('agents');
    await screenshot('03-agents');
  });

  it('talks to the new agent through the orchestrator, streaming, with the routing decision beside the answer', async () => {
    await open('Talk');
    await page.getByLabel('Message').fill('turn on the kitchen lights');
    await page.getByRole('button', { name: 'Send' }).click();
    const answer = main().getByRole('article', { name: 'Answer from orchestrator' }).last();
    await answer.getByText('Done: turn on the kitchen lights').waitFor();
    const decision = main().getByRole('complementary', { name: 'Routing decision' }).last();
    await decision.getByText('Outcome').waitFor();
    const decisionText = await decision.innerText();
    expect(decisionText).toContain('Agents used: lights');
    expect(decisionText).toMatch(/Agents\s+lights/);
    expect(decisionText).toMatch(/answered/);
    await expectAccessible('talk');
    await screenshot('04-talk');
  });

  it('answers an input-required question in place, continuing the same task and conversation', async () => {
    const contextBefore = await main()
      .getByText(/^Conversation /)
      .innerText();
    await page.getByLabel('Message').fill('set the thermostat');
    await page.getByRole('button', { name: 'Send' }).click();
    const asked = main().getByRole('article', { name: 'Answer from orchestrator' }).last();
    await asked.getByText('What temperature would you like?').waitFor();
    expect(await asked.innerText()).toContain('input-required');
    await expectAccessible('talk (question)');
    await screenshot('05-talk-question');

    await asked.getByLabel('Your answer').fill('21 degrees please');
    await asked.getByRole('button', { name: 'Answer' }).click();
    const answered = main().getByRole('article', { name: 'Answer from orchestrator' }).last();
    await answered.getByText('Thermostat set to 21 degrees').waitFor();
    expect(
      await main()
        .getByText(/^Conversation /)
        .innerText(),
    ).toBe(contextBefore);
    await main().getByRole('complementary', { name: 'Routing decision' }).last().getByText('Outcome').waitFor();
    // The hub continued the thermostat's own task rather than starting another.
    const thermostatTasks = thermostat.requests
      .map((r) => (r.body as { params?: { message?: { taskId?: string } } } | undefined)?.params?.message?.taskId)
      .filter(Boolean);
    expect(new Set(thermostatTasks).size).toBe(1);
    await screenshot('06-talk-answered');
  });

  it('talks to one agent directly, showing its task state and artifacts from the stream', async () => {
    await page.getByLabel('Talk to').selectOption('lights');
    // Another agent, another conversation.
    expect(await main().getByRole('list', { name: 'Conversation' }).getByRole('listitem').count()).toBe(0);
    await page.getByLabel('Message').fill('dim the hall lights');
    await page.getByRole('button', { name: 'Send' }).click();
    const answer = main().getByRole('article', { name: 'Answer from lights' });
    await answer.getByText('Done: dim the hall lights').waitFor();
    const text = await answer.innerText();
    expect(text).toContain('completed');
    expect(text).toMatch(/Artifacts\s+result: Lights: dim the hall lights/);
    // Only the orchestrator's answers have a routing decision.
    expect(await main().getByRole('complementary', { name: 'Routing decision' }).count()).toBe(0);
    await expectAccessible('talk (agent)');
    await screenshot('07-talk-agent');
  });

  it('shows the routing log, filtered by agent, each entry opening its details', async () => {
    await open('Routing log');
    const table = main().getByRole('table', { name: 'Routing decisions, newest first' });
    await table.waitFor();
    // The request exactly (its entry's answer, "Done: turn on ...", holds the words too).
    const kitchen = table.getByText('turn on the kitchen lights', { exact: true });
    await kitchen.waitFor();
    expect(await table.getByRole('row').count()).toBeGreaterThanOrEqual(4); // header + three turns

    await page.getByLabel('Agent', { exact: true }).fill('thermostat');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await kitchen.waitFor({ state: 'detached' });
    const rows = table.locator('tbody tr');
    expect(await rows.count()).toBe(2);
    for (const text of await rows.locator('td:nth-child(3)').allInnerTexts()) expect(text).toBe('thermostat');

    await rows.first().getByText('21 degrees please').click();
    const details = rows.first().locator('details');
    expect(await details.getAttribute('open')).not.toBeNull();
    expect(await details.innerText()).toMatch(/Confidence[\s\S]*Reasoning[\s\S]*Router[\s\S]*Candidates/);
    await details.getByLabel('Answer').getByText('Thermostat set to 21 degrees').waitFor();
    await expectAccessible('routing log');
    await screenshot('08-routing-log');
  });

  it('creates a task tree and watches it complete, live', async () => {
    await open('Task trees');
    await page.getByRole('button', { name: 'Create tree' }).click();
    const tree = main().getByRole('region', { name: 'Tree console-demo' });
    await tree.waitFor();
    await tree.getByRole('button', { name: 'Execute' }).click();
    await tree.getByText('Tree finished: completed.').waitFor({ timeout: 30_000 });
    const tasks = tree.getByRole('list', { name: 'Tasks of console-demo' });
    for (const name of ['console-demo', 'wait', 'say'])
      await tasks.locator(`li[data-task="${name}"] > .task-line`).getByText('completed').waitFor();
    const events = await tree.locator('details summary').innerText();
    expect(events).toMatch(/Events \(\d+\)/);
    await expectAccessible('task trees');
    await screenshot('09-task-tree');

    // The hub agrees: the whole tree completed.
    const listed = await t
      .http()
      .post('/tasks')
      .set('X-Api-Key', operatorKey)
      .send({ jsonrpc: '2.0', id: 1, method: 'tasks.list', params: { root_only: true } })
      .expect(200);
    const root = (listed.body.result.tasks as { name: string; status: string }[]).find(
      (task) => task.name === 'console-demo',
    );
    expect(root?.status).toBe('completed');
  });

  it('follows a tree started elsewhere live when it is opened', async () => {
    const rpc = (method: string, params: unknown) =>
      t
        .http()
        .post('/tasks')
        .set('X-Api-Key', operatorKey)
        .send({ jsonrpc: '2.0', id: 1, method, params })
        .expect(200)
        .then((res) => res.body.result as { id: string });
    const created = await rpc('tasks.create', [
      { name: 'api-started' },
      { name: 'slow', parent_id: 'api-started', schemas: { method: 'sleep' }, inputs: { ms: 4000 } },
    ]);
    await rpc('tasks.execute', { task_id: created.id });
    await open('Health');
    await open('Task trees');
    await main().getByRole('button', { name: 'Open api-started' }).click();
    const tree = main().getByRole('region', { name: 'Tree api-started' });
    await tree.getByText('Running…').waitFor();
    await tree.getByText('Tree finished: completed.').waitFor({ timeout: 30_000 });
    await tree.locator('li[data-task="slow"] > .task-line').getByText('completed').waitFor();
  });

  it('shows the health report at a glance', async () => {
    await open('Health');
    await main().getByRole('heading', { name: 'Overall' }).waitFor();
    await main().getByText(/^Hub /).waitFor();
    for (const part of ['Router', 'Registry', 'Database', 'Redis', 'Telemetry'])
      await main().getByRole('heading', { level: 2, name: part, exact: true }).waitFor();
    expect(await main().getByText(/^Hub /).innerText()).toMatch(/Hub (ok|degraded)/);
    await expectAccessible('health');
    await screenshot('10-health');
  });

  let narrowKey = '';

  it('creates a key and shows it once', async () => {
    await open('Keys');
    await page.getByLabel('Name', { exact: true }).fill('kitchen-tablet');
    await page.getByRole('button', { name: 'Create key' }).click();
    const once = main().locator('.once');
    await once.waitFor();
    narrowKey = await page.getByLabel('New key').inputValue();
    expect(narrowKey.length).toBeGreaterThan(20);
    // The key shown works, with the scopes chosen (agents:read and messages by default).
    const system = await t.http().get('/api/system').set('X-Api-Key', narrowKey).expect(200);
    expect(system.body.caller).toMatchObject({ key_name: 'kitchen-tablet', scopes: ['agents:read', 'messages'] });
    await expectAccessible('keys (new key)');
    await screenshot('11-keys-created');

    await page.getByRole('button', { name: 'I have stored it' }).click();
    await once.waitFor({ state: 'detached' });
    expect(await page.content()).not.toContain(narrowKey);
    const row = main().getByRole('row').filter({ hasText: 'kitchen-tablet' });
    expect(await row.innerText()).toContain('active');
  });

  it('revokes the key this session signed in with, and is signed out', async () => {
    const row = main().getByRole('row').filter({ hasText: 'console-operator' });
    expect(await row.innerText()).toContain('(this session)');
    await row.getByRole('button', { name: 'Revoke console-operator' }).click();
    await row.getByText('you will be signed out').waitFor();
    await row.getByRole('button', { name: 'Confirm revoke console-operator' }).click();
    await page.getByRole('heading', { level: 1, name: 'Sign in to Switchboard' }).waitFor();
    expect(await page.getByText('Your session has ended').count()).toBe(1);
    await screenshot('12-signed-out');
    const keys = await t.http().get('/api/keys').set('X-Api-Key', TEST_ADMIN_KEY).expect(200);
    expect((keys.body as { name: string; status: string }[]).find((k) => k.name === 'console-operator')?.status).toBe(
      'revoked',
    );
    expect(await page.evaluate("fetch('/api/console/session').then((r) => r.status)")).toBe(401);
  });

  it('shows a narrower key only the screens its scopes allow', async () => {
    await page.getByLabel('API key').fill(narrowKey);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('Signed in as').waitFor();
    const nav = await page.getByRole('navigation', { name: 'Screens' }).getByRole('link').allInnerTexts();
    expect(nav).toEqual(['Agents', 'Talk']);
    await page.goto('/console/#/keys');
    await page.getByRole('heading', { level: 1, name: 'Agents' }).waitFor();
    // No register form without agents:write.
    expect(await page.getByLabel('Agent base URL').count()).toBe(0);
    await expectAccessible('agents (narrow key)');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { level: 1, name: 'Sign in to Switchboard' }).waitFor();
  });
});
