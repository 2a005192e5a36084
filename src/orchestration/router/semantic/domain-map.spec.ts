import { AppConfig } from '../../../platform/config/app-config';
import { validateEnvironment } from '../../../platform/config/environment';
import { agentCard as card } from '../agent-card.fixture';
import { CardVectors } from './card-vectors';
import { DomainMap } from './domain-map';
import { EVERYDAY_DOMAINS } from './everyday-domains';
import { SentenceEncoder } from './sentence-encoder';

describe('DomainMap (everyday domains and the hosted agents serving them, real model)', () => {
  const config = new AppConfig(validateEnvironment({}));
  const encoder = new SentenceEncoder(config);
  const home = card('home', 'Home Control', 'Lights, heating and locks through Home Assistant', [
    'lights',
    'thermostat',
  ]);
  const weather = card('weather', 'Weather', 'Forecasts and current conditions', ['weather', 'forecast', 'rain']);
  const shop = card('shop', 'Shop', 'Buy mugs, hoodies and t-shirts: cart, checkout and orders', ['mug', 'cart']);

  async function mapFor(agents: ReturnType<typeof card>[]) {
    const cards = new CardVectors(encoder);
    await cards.prepare(agents);
    const domains = new DomainMap(encoder);
    await domains.assign(
      agents.map((a) => a.id),
      cards,
    );
    return domains;
  }

  beforeAll(async () => {
    await encoder.load();
    expect(encoder.status).toMatchObject({ state: 'ready' });
  }, 60_000);

  afterAll(() => encoder.close());

  it('has domains with ids of their own and requests in each', () => {
    expect(new Set(EVERYDAY_DOMAINS.map((d) => d.id)).size).toBe(EVERYDAY_DOMAINS.length);
    for (const domain of EVERYDAY_DOMAINS) expect(domain.requests.length).toBeGreaterThanOrEqual(4);
  });

  it('gives each domain to the card that is about it, and none to what no card is about', async () => {
    const domains = await mapFor([home, weather, shop]);
    expect(domains.agentFor('lighting')).toBe('home');
    expect(domains.agentFor('climate')).toBe('home');
    expect(domains.agentFor('weather')).toBe('weather');
    expect(domains.agentFor('shopping')).toBe('shop');
    // Near the shop, but not what it is about.
    expect(domains.agentFor('groceries-and-takeaway')).toBeUndefined();
    expect(domains.agentFor('finance')).toBeUndefined();
    expect(domains.agentFor('travel')).toBeUndefined();
  });

  it('finds the domain of a request, its agent, and its lead over the nearest other outcome', async () => {
    const domains = await mapFor([home, weather, shop]);
    const [cold, flight] = await encoder.embed(["I'm freezing", 'book me a flight to rome']);
    expect(domains.classify(cold)).toMatchObject({ domain: 'climate', agentId: 'home' });
    expect(domains.classify(cold)!.lead).toBeGreaterThan(0);
    const travel = domains.classify(flight)!;
    expect(travel).toMatchObject({ domain: 'travel' });
    expect(travel.agentId).toBeUndefined();
  });

  it('gives a card of many skills the domains its requests stand out for, though its closest line is far from theirs', async () => {
    const skill = (id: string, description: string, tags: string[], examples: string[]) => ({
      id,
      name: id,
      description,
      tags,
      examples,
    });
    const smartHome = {
      ...card('smart-home', 'Home Control', 'Controls the smart home: lights, switches, climate, covers and locks.'),
      skills: [
        skill('Lights', 'Turn lights on or off, dim them, change their colour.', ['lights', 'lamp'], ['dim the hall']),
        skill('Climate', 'Thermostat, heating and air conditioning.', ['thermostat', 'heating'], ['turn the heat up']),
        skill(
          'Switches, covers and locks',
          'Switch plugs, open or close blinds and garage doors, lock and unlock doors.',
          ['switch', 'blinds', 'garage', 'lock', 'door'],
          ['lock the front door', 'close the blinds'],
        ),
      ],
    };
    const domains = await mapFor([smartHome, weather, shop]);
    expect(domains.agentFor('lighting')).toBe('smart-home');
    expect(domains.agentFor('door-locks')).toBe('smart-home');
    expect(domains.agentFor('openings')).toBe('smart-home');
    expect(domains.agentFor('travel')).toBeUndefined();
  });

  it('follows the agent set: a domain is served once an agent for it is hosted', async () => {
    expect((await mapFor([home, weather])).agentFor('shopping')).toBeUndefined();
    expect((await mapFor([home, weather, shop])).agentFor('shopping')).toBe('shop');
  });
});
