import { startLightsAgent, startMusicAgent, startThermostatAgent, RemoteAgent } from './support/remote-agents';
import { registerAgent, startTestApp, TEST_ADMIN_KEY, TestApp } from './support/test-app';

/**
 * The built-in router with its sentence-embedding model, through the hub: a paraphrase no card
 * word appears in reaches the right agent, and the decision says it went by meaning.
 */
describe('routing by meaning (e2e)', () => {
  let t: TestApp;
  let lights: RemoteAgent;
  let music: RemoteAgent;
  let thermostat: RemoteAgent;

  beforeAll(async () => {
    [lights, music, thermostat] = await Promise.all([startLightsAgent(), startMusicAgent(), startThermostatAgent()]);
    t = await startTestApp({ ALLOW_PRIVATE_NETWORK_TARGETS: 'true', ROUTER_EMBEDDINGS: 'true' });
    await registerAgent(t, lights.baseUrl, 'lights');
    await registerAgent(t, music.baseUrl, 'music');
    await registerAgent(t, thermostat.baseUrl, 'thermostat');
  }, 90_000);

  afterAll(async () => {
    await t?.close();
    await Promise.all([lights?.close(), music?.close(), thermostat?.close()]);
  });

  const internal = (path: string) => t.http().get(path).set('X-Api-Key', TEST_ADMIN_KEY);
  /** One turn of a conversation (a new one when `conversationId` is null). */
  const say = (text: string, conversationId: string | null) =>
    t
      .http()
      .post('/api/conversation')
      .set('X-Api-Key', TEST_ADMIN_KEY)
      .send({ text, context: { conversationId }, promptOverride: null })
      .expect(200);

  it('loads the model at boot, says so in health, and routes a paraphrase to the agent it means', async () => {
    let health = (await internal('/internal/orchestration/health').expect(200)).body;
    for (let i = 0; i < 100 && health.router.embeddings.state === 'loading'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      health = (await internal('/internal/orchestration/health').expect(200)).body;
    }
    expect(health.status).toBe('ok');
    expect(health.router.embeddings).toMatchObject({ state: 'ready', dimensions: 512 });

    const since = new Date().toISOString();
    const answer = await t
      .http()
      .post('/api/conversation')
      .set('X-Api-Key', TEST_ADMIN_KEY)
      .send({ text: "it's too dark in here", context: { conversationId: null }, promptOverride: null })
      .expect(200);
    expect(answer.body.text).toBe("Done: it's too dark in here");
    const log = await internal('/internal/orchestration/routing-log').query({ since }).expect(200);
    expect(log.body.items[0]).toMatchObject({
      request: "it's too dark in here",
      agentId: 'lights',
      outcome: 'answered',
      router: 'default',
      reasoning: expect.stringMatching(/closest card by meaning lights/),
    });
  });

  it('sends "it\'s freezing in here" to the heating agent, whose card never says freezing or cold', async () => {
    const since = new Date().toISOString();
    const answer = await t
      .http()
      .post('/api/conversation')
      .set('X-Api-Key', TEST_ADMIN_KEY)
      .send({ text: "it's freezing in here", context: { conversationId: null }, promptOverride: null })
      .expect(200);
    // The thermostat asks for a temperature when the request gives none: it got the request.
    expect(answer.body.text).toBe('What temperature would you like?');
    expect(thermostat.requests.length).toBeGreaterThan(0);
    const log = await internal('/internal/orchestration/routing-log').query({ since }).expect(200);
    expect(log.body.items[0]).toMatchObject({
      request: "it's freezing in here",
      agentId: 'thermostat',
      router: 'default',
      reasoning: expect.stringMatching(/closest card by meaning thermostat/),
    });
  });
  it('leaves a conversation for a topic it cannot take up, and asks about what no hosted agent does', async () => {
    const first = await say('play some jazz', null);
    expect(first.body.text).toMatch(/jazz/i);
    const conversationId = first.body.conversationId as string;

    // Paying a bill is nothing any hosted agent does: a question, not the conversation's agent.
    const before = { lights: lights.requests.length, music: music.requests.length, heat: thermostat.requests.length };
    const since = new Date().toISOString();
    const bill = await say('pay the water bill', conversationId);
    expect(bill.body).toMatchObject({
      text: 'None of the assistants here seems to handle that. If one of them should, tell me which.',
      type: 'question',
      needsInput: true,
    });
    expect([lights.requests.length, music.requests.length, thermostat.requests.length]).toEqual([
      before.lights,
      before.music,
      before.heat,
    ]);
    const log = await internal('/internal/orchestration/routing-log').query({ since }).expect(200);
    expect(log.body.items[0]).toMatchObject({
      request: 'pay the water bill',
      outcome: 'clarification',
      reasoning: expect.stringMatching(/served by no agent.*no hosted agent does that/),
    });

    // Naming an agent sends it the original request, as after any question.
    const named = await say('the lights', conversationId);
    expect(named.body.text).toBe('Done: pay the water bill');

    // "I'm cold" says nothing the music card says and stands out for it not at all: the heating.
    const heard = thermostat.requests.length;
    const cold = await say("I'm cold", conversationId);
    expect(cold.body.text).toBe('What temperature would you like?');
    expect(thermostat.requests.length).toBeGreaterThan(heard);
  });

  it("sends no agent, not even the conversation's, an action its card does not offer", async () => {
    const first = await say('play some jazz', null);
    const conversationId = first.body.conversationId as string;
    const heard = music.requests.length;
    const since = new Date().toISOString();
    const tickets = await say('and book me two seats at their next concert', conversationId);
    expect(tickets.body).toMatchObject({
      text: 'None of the assistants here seems to handle that. If one of them should, tell me which.',
      type: 'question',
    });
    expect(music.requests.length).toBe(heard);
    const log = await internal('/internal/orchestration/routing-log').query({ since }).expect(200);
    expect(log.body.items[0]).toMatchObject({
      outcome: 'clarification',
      reasoning: expect.stringMatching(/the request asks for booking, which music's card does not offer$/),
    });
  });
});
