import { AppConfig } from '../../../platform/config/app-config';
import { validateEnvironment } from '../../../platform/config/environment';
import {
  agentCard as card,
  cardSkill,
  CAR_AND_THERMOSTAT,
  LIGHTS_AND_HEATING,
  SMART_HOME_AND_ROBOT,
} from '../agent-card.fixture';
import { AgentRouter } from '../agent-router';
import type { DefaultRouter } from '../default-router';
import type { Routing } from '../routing';
import { SemanticStage } from './semantic-stage';
import { SentenceEncoder } from './sentence-encoder';

/** Cards as authors write them: some with skills, tags and examples, some a name and one line. */
const AGENTS = [
  card(
    'home',
    'Home Control',
    'Lights, heating and locks through Home Assistant',
    ['lights', 'thermostat', 'heating', 'lock'],
    ['turn on the kitchen lights', 'set the thermostat to 21 degrees'],
  ),
  card('weather', 'Weather', 'Forecasts and current conditions', ['weather', 'forecast', 'rain']),
  card('music', 'Music', 'Plays songs, artists and playlists', ['music', 'song', 'playlist'], ['play some jazz']),
  card('shop', 'Shop', 'Buy mugs and t-shirts', ['mug', 'blue', 'cart', 'order']),
  card('wiki', 'Ask Wiki', 'Answers general knowledge questions from Wikipedia.'),
  card('news', 'News', 'Headlines and news briefings.'),
];

describe('the built-in router with meaning (sentence embeddings, real model)', () => {
  const config = new AppConfig(validateEnvironment({}));
  const encoder = new SentenceEncoder(config);
  const router = new AgentRouter(config, encoder);
  const route = async (text: string, previousAgentId?: string) =>
    (await router.route({ text, previousAgentId, multiAgent: true }, AGENTS, 1)).routing;

  beforeAll(async () => {
    await encoder.load();
    // The whole status, so a model that failed to load says why (toMatchObject would show only its state).
    expect(encoder.status).toEqual(expect.objectContaining({ state: 'ready', dimensions: 512 }));
  }, 60_000);

  afterAll(() => encoder.close());

  it('routes paraphrases no card word appears in', async () => {
    expect((await route('do I need an umbrella today')).agentId).toBe('weather');
    expect((await route('put something relaxing on')).agentId).toBe('music');
    expect((await route('catch me up on current events')).agentId).toBe('news');
    const routing = await route('do I need an umbrella today');
    expect(routing.semantic).toBe(true);
    expect(routing.confidence).toBeGreaterThanOrEqual(config.orchestration.confidenceThreshold);
    expect(routing.reasoning).toMatch(/closest card by meaning weather/);
  });

  it('reads only the opening of a very long request: one cannot hold the event loop or the model with it', async () => {
    // Read whole, a 200 KB request held the event loop for seconds (clauses, typos) and the
    // model's tokenizer costs the square of a text's length (70,000 characters took ~90 s).
    for (const filler of ['and also tell me about the sky ', 'zq', 'z']) {
      const long = `do I need an umbrella today ${filler.repeat(200_000 / filler.length)}`;
      const started = Date.now();
      const routing = await route(long);
      expect(Date.now() - started).toBeLessThan(2_000);
      expect(encoder.saturated).toBe(false);
      // Routed as one request: an agent gets the whole text, not a part of it.
      expect(routing.parts).toBeUndefined();
      expect(routing.additionalAgents).toBeUndefined();
      // One giant word: what is read is the request before it.
      if (!filler.startsWith('and')) expect(routing.agentId).toBe('weather');
    }
  });

  it('leaves direct commands to the card words: the model is not consulted', async () => {
    const routing = await route('turn on the kitchen lights');
    expect(routing).toMatchObject({ agentId: 'home' });
    expect(routing.semantic).toBeUndefined();
  });

  it('reads a request with typos as the cards spell its words', async () => {
    expect((await route('whats the wether tomorow')).agentId).toBe('weather');
    expect((await route('paly some jaz')).agentId).toBe('music');
  });

  it('routes each clause on its own words and meaning', async () => {
    const routing = await route('turn on the porch lights and do I need an umbrella');
    expect([routing.agentId, ...(routing.additionalAgents ?? [])].sort()).toEqual(['home', 'weather']);
    expect(routing.parts).toEqual({ home: 'turn on the porch lights', weather: 'do I need an umbrella' });
  });

  it('keeps a word of a list with the clause before it, when that is the clause asked about', async () => {
    const routing = await route('play some jazz and order us fish and chips');
    expect(routing).toMatchObject({ agentId: 'music', parts: { music: 'play some jazz' } });
    expect(routing.unplaced?.map((u) => u.text)).toEqual(['order us fish and chips']);
  });

  it('keeps a short follow-up with the conversation, and asks about what no card is near', async () => {
    expect((await route('louder', 'music')).agentId).not.toBe('home');
    const outOfScope = await route('call mom');
    expect(outOfScope.confidence).toBeLessThan(config.orchestration.confidenceThreshold);
  });

  it('asks about an everyday request no hosted agent serves instead of giving it to the nearest card', async () => {
    const hotel = await route('book a hotel in rome');
    expect(hotel).toMatchObject({ agentId: '', outOfScope: 'travel', candidates: [] });
    expect(hotel.reasoning).toMatch(/\(travel, served by no agent, .*\): no hosted agent does that/);
    // A knowledge question goes to the wiki, whose card serves general knowledge.
    expect((await route('who invented the telephone')).agentId).toBe('wiki');
  });

  it('routes what people say about how they feel through its domain', async () => {
    const cold = await route("I'm freezing");
    expect(cold.agentId).toBe('home');
    expect(cold.reasoning).toMatch(/\(climate, served by home/);
    expect((await route('should I bring a coat')).agentId).toBe('weather');
  });

  it('leaves a conversation only for what does not stand out for its agent and clearly belongs to another', async () => {
    // A topic change: being cold is nothing the news does.
    expect((await route("I'm cold", 'news')).agentId).toBe('home');
    // Follow-ups the conversation's agent can take up stay with it (no agent named: the planner
    // lets the conversation's agent continue).
    for (const [text, previous] of [
      ['what about tomorrow', 'weather'],
      ['turn it off', 'home'],
      ['louder', 'music'],
    ]) {
      const followUp = await route(text, previous);
      expect(followUp.outOfScope).toBeUndefined();
      expect(['', previous]).toContain(followUp.agentId);
    }
    // What no hosted agent serves is asked about, not handed to the conversation's agent.
    expect((await route('pay the water bill', 'home')).outOfScope).toBe('finance');
    // An adjustment stays with the conversation even where its everyday domain is another agent's:
    // "louder" is nearest the music's requests, but after the TV it is the TV's.
    const tv = card('tv', 'TV', 'Controls the living room TV: apps, channels, films and series.');
    const louder = await router.route({ text: 'louder', previousAgentId: 'tv', multiAgent: true }, [...AGENTS, tv], 7);
    expect(louder.routing).toMatchObject({ agentId: 'tv' });
  });

  it('leaves a conversation for a question that refers to nothing in it and stands far out for another card', async () => {
    const cards = [
      card(
        'lamp',
        'Lamp',
        'Turns the living room lamp on and off and changes its colour',
        ['lamp', 'light'],
        ['make the lamp blue'],
      ),
      card(
        'weather',
        'Weather',
        "Today's weather and the forecast for the coming days: temperature, rain, wind.",
        ['weather', 'forecast', 'rain', 'temperature'],
        ["what's the weather like tomorrow", 'will it rain this afternoon'],
      ),
      card('music', 'Music', 'Plays songs, artists and playlists', ['music', 'song', 'playlist'], ['play some jazz']),
      card('shop', 'Shop', 'Buy mugs and t-shirts', ['mug', 'blue', 'cart', 'order']),
    ];
    const inConversation = async (text: string, previousAgentId: string) =>
      (await router.route({ text, previousAgentId, multiAgent: true }, cards, 2)).routing;
    // The "it" of the weather is no reference to the song playing.
    expect(await inConversation('is it cold out?', 'music')).toMatchObject({ agentId: 'weather', semantic: true });
    // A word the conversation's card has too does not take a reference away from it.
    expect(await inConversation('now make it blue', 'lamp')).toMatchObject({ agentId: 'lamp', refersBack: true });
  });

  it("leaves a conversation for another agent's everyday domain when the request stands out far more for that agent's card", async () => {
    const cards = [
      card(
        'thermostat',
        'ecobee',
        'Smart thermostat for the house: heating, cooling and the temperature in each room.',
        ['thermostat', 'temperature', 'heat', 'cool'],
        ['set the heat to 68', 'how warm is the bedroom'],
      ),
      card('weather', 'The Weather Channel', 'Forecast, radar and severe weather alerts for Westerville, OH.'),
      card('music', 'Music', 'Plays songs, artists and playlists', ['music', 'song', 'playlist'], ['play some jazz']),
      card('shop', 'Shop', 'Buy mugs and t-shirts', ['mug', 'blue', 'cart', 'order']),
    ];
    const inConversation = async (text: string, previousAgentId: string) =>
      (await router.route({ text, previousAgentId, multiAgent: true }, cards, 8)).routing;
    // "it" is the weather's, not the thermostat's: the outside is not the house, though the
    // request stands out for the thermostat's card too (its temperature).
    const outside = await inConversation("how low's it supposed to get outside tonight", 'thermostat');
    expect(outside).toMatchObject({ agentId: 'weather', semantic: true });
    expect(outside.reasoning).toMatch(/\(weather, served by weather, 0\.7\d/);
    // What the thermostat takes up stays with it.
    expect(['', 'thermostat']).toContain((await inConversation('make it a bit warmer', 'thermostat')).agentId);
  });

  it("leaves a conversation for another agent's everyday domain though the conversation's card names the room asked about", async () => {
    const cards = LIGHTS_AND_HEATING;
    const inConversation = async (text: string, previousAgentId: string) =>
      (await router.route({ text, previousAgentId, multiAgent: true }, cards, 9)).routing;
    // "it" points at nothing, and how warm a room is belongs to the heating, whose card it stands
    // out for far more than for the lights' (which name the living room too).
    const warm = await inConversation('how warm is it in the living room', 'hue');
    expect(warm).toMatchObject({ agentId: 'tado', semantic: true });
    expect(warm.reasoning).toMatch(/\(climate, served by tado, 0\.7\d/);
    // What the lights take up stays with them.
    expect((await inConversation('make it a bit brighter', 'hue')).agentId).toBe('hue');
  });

  it('keeps with the conversation a request that names only whose thing it asks about, though another card has the name', async () => {
    const cards = [
      card('grades', 'PowerSchool', 'Grades, assignments and attendance for Jaylen and Sofia.', [], []),
      card(
        'family',
        'Life360',
        "Where Marcus, Jaylen or Sofia is right now, who's at home, and the places they've been today.",
        ['location', 'where is', 'Sofia', 'Jaylen'],
        ["where's Sofia", 'is Jaylen home yet'],
      ),
      card(
        'climate',
        'Sensibo',
        "Turn a mini-split on or off and set its temperature in the living room or Jaylen's room.",
        ['AC', 'heat', 'turn on', 'turn off'],
        ["turn on the AC in Jaylen's room", 'turn it off'],
      ),
      card('plugs', 'Kasa', "Turn on or off the floor lamp and Sofia's string lights.", ['lights', 'lamp', 'plug']),
    ];
    const inConversation = async (text: string, previousAgentId: string) =>
      (await router.route({ text, previousAgentId, multiAgent: true }, cards, 3)).routing;
    expect(await inConversation("what about Sofia's", 'grades')).toMatchObject({ agentId: 'grades' });
    // A thing named, then what to do with it: one request, not a clause of its own for "turn them on".
    const lights = (await router.route({ text: "Sofia's twinkly lights, turn them on", multiAgent: true }, cards, 3))
      .routing;
    expect(lights).toMatchObject({ agentId: 'plugs' });
    expect(lights.additionalAgents).toBeUndefined();
  });

  it('takes a clause that only gives context as part of the request beside it, not as a request to ask about', async () => {
    const drive = await route('I have a long drive tomorrow, will it snow');
    expect(drive).toMatchObject({ agentId: 'weather' });
    expect(drive.unplaced).toBeUndefined();
    // The agent gets the whole request, context included.
    expect(drive.parts).toBeUndefined();
    // A clause pointing at a thing named beside it goes with it, wherever its meaning alone would
    // go ("I'm sick of this one" alone is nearest "I can barely see in here": the lights).
    const sick = await route("next song, I'm sick of this one");
    expect(sick).toMatchObject({ agentId: 'music' });
    expect(sick.additionalAgents).toBeUndefined();
    // A request of its own beside another is still asked about.
    expect(await route('call mom and play some jazz')).toMatchObject({
      agentId: 'music',
      parts: { music: 'play some jazz' },
      unplaced: [{ text: 'call mom', candidates: [] }],
    });
    // So is one that opens with an action, though it says how things are ("that I'll be late").
    expect(await route("play some jazz and text my wife that I'll be late")).toMatchObject({
      agentId: 'music',
      unplaced: [{ text: "text my wife that I'll be late" }],
    });
  });

  it('routes as one request clauses that are parts of it: each stands out most for the agent the rest goes to', async () => {
    const list = {
      ...card('bring', 'Bring!', 'The shopping list you share with everyone at home.'),
      skills: [
        {
          id: 'list',
          name: 'Shopping list',
          description: "Add, remove and read out items on your Bring! lists; changes show up on everyone's phone.",
          tags: ['shopping', 'list', 'groceries', 'items'],
          examples: ['put milk on the list', "what's on the shopping list", 'take bread off the list'],
        },
      ],
    };
    const household = [
      list,
      card('mealie', 'Mealie', 'Self-hosted recipe manager and meal planner.'),
      ...AGENTS.slice(0, 4),
    ];
    const at = async (text: string) => (await router.route({ text, multiAgent: true }, household, 'shopping')).routing;
    // "and" joins the things added, not two requests: "ad eggs" is no request of its own.
    const eggs = await at('ad eggs and bred to the shoping list');
    expect(eggs).toMatchObject({ agentId: 'bring' });
    expect(eggs.unplaced).toBeUndefined();
    // Nor is an item of a list that only names a thing no card has: a brand, someone's thing.
    const grocer = card(
      'grocer',
      'FreshCart',
      'Groceries delivered to your door in an hour. Shop thousands of products with free delivery on your first order.',
    );
    for (const text of [
      "we're out of milk and Ouma's rusks, get some delivered in the next hour",
      "we're out of milk and Tim Tams, get some delivered",
    ]) {
      const items = (await router.route({ text, multiAgent: true }, [grocer, ...AGENTS.slice(0, 4)], 'grocer')).routing;
      expect(items).toMatchObject({ agentId: 'grocer' });
      expect(items.unplaced).toBeUndefined();
    }
    // A clause out of scope beside it is still asked about.
    const table = await at('add eggs to the shopping list and book us a table at Dishoom');
    expect(table).toMatchObject({ agentId: 'bring' });
    expect(table.unplaced).toHaveLength(1);
  });

  it('takes a question of what follows for the asker as part of the request beside it, when it is nearest that card', async () => {
    const household = [
      card(
        'car',
        'myToyota',
        'Your Toyota, connected. Find your car, check your fuel and lock the doors from your phone.',
      ),
      card('pool', 'AstralPool', 'The pool heater, pump and lights.', ['pool', 'heater', 'pump']),
      ...AGENTS.slice(2, 4),
    ];
    const at = async (text: string) => (await router.route({ text, multiAgent: true }, household, 'car')).routing;
    const fuel = await at('how much fuel is left in the car, should I stop at the petrol station');
    expect(fuel).toMatchObject({ agentId: 'car' });
    expect(fuel.unplaced).toBeUndefined();
    // Not a question that is nearest no card of the request beside it (the weather: no agent's).
    const umbrella = await at('turn off the pool heater, do I need an umbrella');
    expect(umbrella).toMatchObject({ agentId: 'pool' });
    expect(umbrella.unplaced).toHaveLength(1);
  });

  it('sends no agent an action its card does not offer, even in a conversation', async () => {
    const seat = await route('book me a seat on it', 'weather');
    expect(seat).toMatchObject({ agentId: '', outOfScope: 'booking', candidates: [] });
    expect(seat.reasoning).toMatch(/the request asks for booking, which weather's card does not offer$/);
    expect(await route('and ring them', 'music')).toMatchObject({ agentId: '', outOfScope: 'calling' });
    // Joined by "and", a request of its own is out of scope by its domain, not kept with the music.
    expect(await route('and ring my mum', 'music')).toMatchObject({ agentId: '', outOfScope: 'communication' });
  });

  it('does not let one card word beside words no card has decide without the meaning', async () => {
    const sky = await route('why is the sky blue');
    expect(sky.semantic).toBe(true);
    expect(sky.agentId).not.toBe('shop');
  });

  it('does not let a card word saying which one decide beside words saying what ("when is the *next* match")', async () => {
    const agents = [
      card('player', 'Player', 'Plays music from your library', ['music', 'song', 'skip', 'next'], ['skip this track']),
      card('scores', 'Scores', 'Sports results and fixtures.'),
    ];
    const routed = async (text: string) => (await router.route({ text, multiAgent: true }, agents, 4)).routing;
    expect(await routed('when is the next Arsenal match')).toMatchObject({ agentId: 'scores', semantic: true });
    expect((await routed('next song')).agentId).toBe('player');
  });

  it("asks the meaning when a card has the request's word only as part of a tag ('seat heating')", async () => {
    const routed = async (text: string) =>
      (await router.route({ text, multiAgent: true }, CAR_AND_THERMOSTAT, 5)).routing;
    // "heating" is the car's only in "seat heating": the house's heating is the thermostat's.
    expect(await routed('set the heating to 21')).toMatchObject({ agentId: 'thermostat', semantic: true });
    expect((await routed('turn on the seat heating')).agentId).toBe('car');
  });

  it('gives floor cleaning to a one-line robot card beside a smart home, and leaves the appliances neither is about out of scope', async () => {
    const agents = [...SMART_HOME_AND_ROBOT, AGENTS[1]];
    const routed = async (text: string) => (await router.route({ text, multiAgent: true }, agents, 2)).routing;
    // Floor cleaning: the robot's card serves it.
    expect((await routed('start the vacuum')).agentId).toBe('robot');
    // The appliances: served by no agent (the smart home's plugs come near them, its claim does not hold).
    expect((await routed('run the dishwasher tonight')).agentId).toBe('');
  });

  it('asks about a request the meaning alone puts on a card when its everyday domain is one the card is not placed in', async () => {
    const agents = [
      card(
        'ocado',
        'Ocado',
        'Online grocery shopping and delivery from Ocado.',
        ['groceries', 'trolley', 'delivery'],
        ['add milk to my trolley', 'when is my delivery arriving'],
      ),
      card(
        'medminder',
        'MedMinder',
        'Tracks your medications, reminds you to take them, and tells you when a prescription needs refilling.',
      ),
      card('ecobee', 'ecobee', 'ecobee smart thermostat with room sensors.'),
    ];
    const routed = async (text: string) => (await router.route({ text, multiAgent: true }, agents, 3)).routing;
    // Near the grocer's card (1.57 σ, no card word), nearer a fact about food no agent serves: a question.
    const calories = await routed('how many calories are in an avocado');
    expect(calories).toMatchObject({ agentId: '', semantic: true, outOfScope: 'general-knowledge' });
    expect(calories.reasoning).toMatch(/closest card by meaning ocado .*served by no agent/);
    // The card's words still decide, and so does meaning that its domain bears out.
    expect((await routed('add avocados to my trolley')).agentId).toBe('ocado');
    expect((await routed("it's chilly in here")).agentId).toBe('ecobee');
  });

  it('does not let one card word the everyday domain outweighed decide again on its own', async () => {
    const sprinkler = {
      ...card('sprinkler', 'Sprinkler', 'Smart sprinkler controller for the lawns and the vegetable beds.'),
      skills: [
        cardSkill(
          'Watering',
          'Run a zone for some minutes, stop watering, skip the next run or set a rain delay, and tell you when the zones run next.',
          ['sprinkler', 'watering', 'zone', 'lawn', 'rain delay', 'skip', 'schedule'],
          ['water the back lawn for 10 minutes', "skip tomorrow's watering"],
        ),
      ],
    };
    const agents = [
      sprinkler,
      ...AGENTS.filter((a) => a.id !== 'weather'),
      card('garage', 'Garage', 'Opens and closes the garage door.'),
      card('parcels', 'Parcels', 'Tracks your parcels and deliveries.'),
      card('baby', 'Baby monitor', 'Watch and soothe the baby in the nursery.'),
      card('car', 'Car', 'Charge, heat and lock the car.'),
    ];
    const routed = async (text: string) => (await router.route({ text, multiAgent: true }, agents, 4)).routing;
    // "rain" is the sprinkler's word (score 7.19 among ten cards), but the request is the
    // weather's, which no agent here serves (its nearest everyday request 0.86 near).
    expect(await routed('is it going to rain this weekend')).toMatchObject({ agentId: '', outOfScope: 'weather' });
    // The sprinkler's own requests still go to it.
    expect((await routed('skip the watering tomorrow')).agentId).toBe('sprinkler');
  });

  it('routes on card words alone while the model is off', async () => {
    const off = new AppConfig(validateEnvironment({ ROUTER_EMBEDDINGS: 'false' }));
    const words = new AgentRouter(off, new SentenceEncoder(off));
    const { routing } = await words.route({ text: 'do I need an umbrella today', multiAgent: true }, AGENTS, 1);
    expect(routing.semantic).toBeUndefined();
    expect(routing.confidence).toBeLessThan(off.orchestration.confidenceThreshold);
  });
});

describe('SemanticStage.refine with the card words given (real model)', () => {
  const config = new AppConfig(validateEnvironment({}));
  const encoder = new SentenceEncoder(config);
  const stage = new SemanticStage(encoder, config.orchestration.confidenceThreshold);
  /** What the card words said: `agentId` at `confidence`, and more. */
  const said = (agentId: string, confidence: number, more: Partial<Routing> = {}): Routing => ({
    agentId,
    reasoning: 'by words',
    confidence,
    candidates: [agentId],
    ...more,
  });
  /** Card words that say `routing` of every text. */
  const words = (routing: Routing) =>
    ({ route: () => routing, spelledOut: (text: string) => text }) as unknown as DefaultRouter;
  const APPLIANCES = {
    ...card('appliances', 'Miele@home', 'Your Miele appliances from your phone.'),
    skills: [
      cardSkill(
        'Oven',
        'Preheat the oven, pick a programme, switch it off and say when it is up to temperature.',
        ['oven', 'preheat', 'bake', 'grill'],
        ['preheat the oven to 180', 'is the oven hot yet'],
      ),
      cardSkill(
        'Dishwasher and laundry',
        'Start the dishwasher, the washing machine or the dryer and say how long is left.',
        ['dishwasher', 'washing machine', 'dryer', 'laundry'],
        ['start the dishwasher', 'how long is left on the washing'],
      ),
    ],
  };
  const ROBOT = card('robot', 'DEEBOT', "Robot vacuums that vacuum and mop your floors, so you don't have to.");
  const COFFEE = card(
    'coffee',
    'Nespresso',
    'Vertuo and Original coffee machines: brew a coffee or an espresso from your phone.',
  );

  beforeAll(() => encoder.load(), 60_000);
  afterAll(() => encoder.close());

  it('keeps a domain another agent serves from taking a request from card words and the card they point to', async () => {
    const agents = [APPLIANCES, COFFEE, ...AGENTS];
    const request = { text: 'make me a coffee', multiAgent: true };
    // Word for word an everyday request of the appliances' domain, which the appliances' card
    // serves (lead 0.47); but two of the coffee machine's card words and its card, far ahead, say which one.
    const byTwoWords = said('coffee', 0.69, { evidenceTerms: 2, otherTerms: 0 });
    const coffee = await stage.refine(request, byTwoWords, words(byTwoWords), agents, 'coffee');
    expect(coffee).toMatchObject({ agentId: 'coffee', semantic: true });
    expect(coffee.confidence).toBeCloseTo(0.984);
    expect(coffee.reasoning).toMatch(
      /closest card by meaning coffee \(4\.\d\d σ; next shop at 2\.\d\d σ\); .*\(appliances, served by appliances, 1\.00, lead 0\.47\)/,
    );
    // Card words that are only part of a tag of several words do not hold the domain off.
    const partOfTags = { ...byTwoWords, partOfTags: true };
    expect(await stage.refine(request, partOfTags, words(partOfTags), agents, 'coffee')).toMatchObject({
      agentId: 'appliances',
    });
  });

  it('does not let a distant everyday request of a domain no agent serves take a request from words and a clear card', async () => {
    const agents = [APPLIANCES, ROBOT, ...AGENTS.slice(1)];
    // The card words (given here) point to the robot: one word beside a place.
    const hoover = said('robot', 0.62, { evidenceTerms: 1, otherTerms: 1 });
    const lounge = await stage.refine(
      { text: 'get the hoover going in the lounge', multiAgent: true },
      hoover,
      words(hoover),
      agents,
      'lounge',
    );
    // "make it cosy in the lounge" shares a place, not what is asked: the robot's, by its word and its card.
    expect(lounge).toMatchObject({ agentId: 'robot', semantic: true });
    expect(lounge.outOfScope).toBeUndefined();
    expect(lounge.reasoning).toMatch(
      /closest card by meaning robot \(2\.8\d σ; .*"make it cosy in the lounge" \(lighting, served by no agent, 0\.69, lead 0\.01\)/,
    );
    // A request of the domain, as near as one asking the same, is still out of scope.
    const cosy = said('', 0, { otherTerms: 2 });
    expect(
      (await stage.refine({ text: 'make it cosy in here', multiAgent: true }, cosy, words(cosy), agents, 'lounge'))
        .outOfScope,
    ).toBe('lighting');
  });

  it("keeps a request that refers back in the conversation when it is of the domain the conversation's agent serves", async () => {
    // "now make *them* blue" after the lights: "blue" is a shop's card word, and the request
    // stands out for the shop's card (3.09 σ), but what is asked is the lighting's.
    const shop = card(
      'shop',
      'Shop',
      'Mugs, t-shirts and hoodies in every colour',
      ['mug', 'blue', 'cart', 'order', 'colour'],
      ['add a blue mug to my cart', 'do you have it in red'],
    );
    const agents = [...AGENTS.slice(0, 3), shop, ...AGENTS.slice(4)];
    const request = { text: 'now make them blue', multiAgent: true, previousAgentId: 'home' };
    const refersBack = said('home', 0.8, { refersBack: true });
    const shopWords = said('shop', 0.76, { evidenceTerms: 1, otherTerms: 0 });
    const blue = await stage.refine(request, refersBack, words(shopWords), agents, 'blue');
    expect(blue).toMatchObject({ agentId: 'home', refersBack: true, semantic: true });
    expect(blue.reasoning).toMatch(/closest card by meaning shop \(3\.\d\d σ.*\(lighting, served by home/);
  });
});

describe('SemanticStage.decided', () => {
  const stage = new SemanticStage({} as SentenceEncoder, 0.7);
  const split: Routing = {
    agentId: 'fans',
    additionalAgents: ['forecast'],
    reasoning: 'by words',
    confidence: 0.8,
    candidates: ['fans', 'forecast'],
    parts: { fans: 'turn the fan on', forecast: 'lower the temperature' },
  };
  const request = { text: 'turn the fan on and lower the temperature', multiAgent: true };

  it('leaves to the model a split whose clause rests on one card word among others', () => {
    expect(stage.decided(request, split)).toBe(true);
    expect(stage.decided(request, { ...split, tentative: true })).toBe(false);
  });
});
