import { AppConfig } from '../../../platform/config/app-config';
import { validateEnvironment } from '../../../platform/config/environment';
import { agentCard as card } from '../agent-card.fixture';
import { AgentRouter } from '../agent-router';
import { CARD_BACKGROUND, EVERYDAY_DOMAINS, EVERYDAY_SAYINGS, framedDomain } from './everyday-domains';
import { SentenceEncoder } from './sentence-encoder';

describe('requests framed as a domain (framedDomain)', () => {
  it('knows a reminder by how it opens, whatever it is a reminder of', () => {
    for (const text of [
      'remind me to phone the garage about the tyres',
      'Remind me at half five to take the lasagne out',
      'remind me tomorrow morning to email the accountant',
      'can you remind me about the school trip money',
      'and remind me to text Joe',
      "don't let me forget my gym bag",
      'dont let me forget to move the car',
      'set a reminder for the quarterly VAT return',
    ]) {
      expect([text, framedDomain(text)]).toEqual([text, 'reminders-and-lists']);
    }
  });

  it('knows a wish to watch something by how it opens, whatever is named', () => {
    for (const text of [
      'I want to watch the snooker',
      'we wanna watch Encanto tonight, can you pull it up',
      "let's watch a film",
      'can we watch Bluey',
      "so I'd like to watch the news",
    ]) {
      expect([text, framedDomain(text)]).toEqual([text, 'tv-and-video']);
    }
    for (const text of ['watch the kids for a minute', 'I watched the match last night', 'keep watch on the house']) {
      expect([text, framedDomain(text)]).toEqual([text, undefined]);
    }
  });

  it('leaves requests that only mention remembering to their words and meaning', () => {
    for (const text of [
      'remind me when the potatoes are done in 20 minutes',
      'remind me of my appointments for tuesday',
      'remind me what the capital of peru is',
      'did I remember to shut the garage',
      "I can't remember where I parked",
      'turn off the hall light',
    ]) {
      expect([text, framedDomain(text)]).toEqual([text, undefined]);
    }
  });
});

describe('the background the cards are calibrated against (CARD_BACKGROUND)', () => {
  /** Every domain's requests, in the order of EVERYDAY_DOMAINS. */
  const EVERYDAY_REQUESTS = EVERYDAY_DOMAINS.flatMap((d) => d.requests);

  it('keeps the requests of the domains it was fixed with, not those of a domain added since', () => {
    const later = EVERYDAY_DOMAINS.filter((d) => d.background === false);
    expect(later.map((d) => d.id)).toContain('car');
    for (const request of later.flatMap((d) => d.requests)) expect(CARD_BACKGROUND).not.toContain(request);
    expect(CARD_BACKGROUND).toEqual(EVERYDAY_REQUESTS.filter((r) => !later.some((d) => d.requests.includes(r))));
  });

  it('leaves out what is also said (alsoSaid), which is said once, apart from the requests', () => {
    const said = EVERYDAY_DOMAINS.flatMap((d) => d.alsoSaid ?? []);
    expect(said.length).toBeGreaterThan(100);
    for (const text of said) expect(CARD_BACKGROUND).not.toContain(text);
    const written = [...EVERYDAY_REQUESTS, ...said].map((t) => t.toLowerCase().replace(/\bwhat is\b/g, "what's"));
    expect(new Set(written).size).toBe(written.length);
    expect(EVERYDAY_SAYINGS.map((s) => s.text)).toEqual(
      EVERYDAY_DOMAINS.flatMap((d) => [...d.requests, ...(d.alsoSaid ?? [])]),
    );
  });
});

describe('requests routed by their everyday domain (real model)', () => {
  const config = new AppConfig(validateEnvironment({}));
  const encoder = new SentenceEncoder(config);
  const router = new AgentRouter(config, encoder);
  const LOCK = card(
    'lock',
    'Front Door Lock',
    'Smart lock on the front door.',
    ['lock', 'unlock', 'door'],
    ['unlock the front door', 'is the door locked'],
  );
  const FAN = card('fan', 'Fan Heater', 'Heats or cools a room to a target temperature.', [
    'fan',
    'heat',
    'temperature',
  ]);
  const TODO = card('todo', 'Tasks', 'Lists, tasks and reminders, shared with your household.');
  const HOUSEHOLD = [LOCK, FAN, TODO];
  const WITHOUT_TASKS = [LOCK, FAN];
  // Each agent set its own revision (AgentHost.revision): the cards are prepared again when it changes.
  const route = async (text: string, agents = HOUSEHOLD) =>
    (await router.route({ text, multiAgent: false }, agents, agents === HOUSEHOLD ? 1 : 2)).routing;
  const RECIPES_AND_THERMOSTAT = [
    card('recipes', 'Recipes', 'Step-by-step recipes and cooking for every meal.', ['recipe', 'cook', 'bake']),
    card('thermostat', 'Thermostat', 'Smart thermostat: heating and cooling at home.', ['heating', 'temperature']),
  ];
  const nearMiss = async (text: string) =>
    (await router.route({ text, multiAgent: false }, RECIPES_AND_THERMOSTAT, 3)).routing;

  const CAR = card('toyota', 'myToyota', 'Your Toyota, connected: find your car and lock it from your phone.', [
    'find',
    'lock',
  ]);

  beforeAll(async () => {
    await encoder.load();
    expect(encoder.status).toEqual(expect.objectContaining({ state: 'ready', dimensions: 512 }));
  }, 60_000);

  afterAll(() => encoder.close());

  it('gives a reminder to the agent serving reminders, not to the card its subject is near', async () => {
    // The model puts "remind me to call the landlord …" nearest "make sure the house is locked".
    expect((await route('remind me to call the landlord tomorrow at 10')).agentId).toBe('todo');
    expect((await route("don't let me forget to book the car's MOT")).agentId).toBe('todo');
  });

  it('asks about a reminder when no hosted agent serves reminders', async () => {
    expect(await route('remind me to call the landlord tomorrow at 10', WITHOUT_TASKS)).toMatchObject({
      agentId: '',
      outOfScope: 'reminders-and-lists',
    });
  });

  it('asks about what food contains rather than handing it to a recipe card', async () => {
    // A fact about food, as "how much protein is in a chicken breast": no hosted agent's.
    expect(await nearMiss('how many calories are in a bagel')).toMatchObject({
      agentId: '',
      outOfScope: 'general-knowledge',
    });
  });

  it("gives a request about the car, in no word of the car's card, to the car's agent", async () => {
    const withCar = [CAR, ...HOUSEHOLD];
    const routing = (await router.route({ text: 'how much petrol have I got', multiAgent: false }, withCar, 4)).routing;
    expect(routing.agentId).toBe('toyota');
  });

  it('asks about the car when no hosted agent serves it', async () => {
    expect(await route('how much petrol have I got')).toMatchObject({ agentId: '', outOfScope: 'car' });
  });
});
