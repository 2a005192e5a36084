import { agentCard as agent } from './agent-card.fixture';
import { actionObject, requestedAction, wantedNewThing, withOfferedActions } from './actions';
import { DefaultRouter } from './default-router';
import type { Routing } from './routing';

const AGENTS = [
  agent('commute', 'Commute', 'Live train and bus departures', ['train', 'bus', 'delays']),
  agent('scores', 'Scores', 'Sports results and fixtures.'),
  agent('shop', 'Shop', 'Mugs and t-shirts', ['mug', 'cart', 'checkout']),
  agent('calendar', 'Family Calendar', 'Appointments and events', ['calendar', 'appointment']),
  agent('list', 'Shopping List', 'Keeps the household grocery list.'),
];
const index = new DefaultRouter(AGENTS);
const routed = (agentId: string, extra: Partial<Routing> = {}): Routing => ({
  agentId,
  reasoning: 'by words',
  confidence: 0.9,
  candidates: [agentId],
  ...extra,
});

describe('actions a card must offer', () => {
  it.each([
    ['book a train ticket to Glasgow', 'booking'],
    ['could you please reserve a table', 'booking'],
    ["I'd like to pay for my stuff now", 'buying'],
    ['and order me a pizza while you are at it', 'buying'],
    ['bet a tenner on Liverpool to win', 'betting'],
    ['call the plumber', 'calling'],
    ['ring my mum on her mobile', 'calling'],
    ['send a text to Jess', 'messaging'],
    ['email my boss', 'messaging'],
    ['get me tickets for her tour', 'booking'],
    ['can you grab us two tickets to the match', 'booking'],
    ['subscribe to Netflix', 'buying'],
  ])('reads "%s" as asking for %s', (text, action) => {
    expect(requestedAction(text)).toBe(action);
  });

  it.each([
    'when is the next train',
    'play the new album',
    'send the robot vacuum home',
    'what is the order of the planets',
    'get me the weather',
    'find my ticket confirmation',
    'subscribe to the Serial podcast',
  ])('reads "%s" as asking for none', (text) => expect(requestedAction(text)).toBeUndefined());

  it('takes an action off an agent whose card does not offer it, naming those that do', () => {
    const request = { text: 'book a train ticket to Glasgow', multiAgent: true };
    const routing = withOfferedActions(index, request, routed('commute'), 0.7);
    expect(routing).toMatchObject({ agentId: '', confidence: 0, candidates: [], outOfScope: 'booking' });
    expect(routing.reasoning).toBe(
      "by words; but the request asks for booking (train ticket), which commute's card does not offer",
    );
    const buying = withOfferedActions(
      index,
      { text: 'buy a mug for the game', multiAgent: true },
      routed('scores'),
      0.7,
    );
    expect(buying).toMatchObject({ agentId: '', candidates: ['shop'], outOfScope: 'buying' });
    // A shopping list keeps groceries; it does not buy them (nor does the shop of mugs sell pizza).
    const pizza = withOfferedActions(index, { text: 'order us a pizza', multiAgent: true }, routed('list'), 0.7);
    expect(pizza).toMatchObject({ agentId: '', candidates: [], outOfScope: 'buying' });
  });

  it.each([
    ['order a pizza from Luigi', 'pizza'],
    ['refund my train ticket', 'train ticket'],
    ['and could you buy two blue mugs for my sister', 'blue mugs'],
    ["I'd like to pay for my stuff now", undefined],
    ['buy a present for my brother', undefined],
    ['book a table for two at 8', undefined],
    ['reserve two seats for the matinee', undefined],
    // Whom a call, a message or a bet is for is no thing a card lists.
    ['call the plumber', undefined],
    ['bet a tenner on Liverpool', undefined],
  ])('reads what "%s" is for as %s', (text, object) => expect(actionObject(text)).toBe(object));

  it('takes an action off an agent whose card offers it, but not for what the request says it is for', () => {
    const refund = withOfferedActions(index, { text: 'refund my train ticket', multiAgent: true }, routed('shop'), 0.7);
    expect(refund).toMatchObject({ agentId: '', candidates: [], outOfScope: 'buying' });
    expect(refund.reasoning).toMatch(/asks for buying \(train ticket\), which shop's card does not offer$/);
    const pizza = { text: 'and order me a pizza while you are at it', previousAgentId: 'shop', multiAgent: true };
    expect(withOfferedActions(index, pizza, routed('shop', { confidence: 0.3 }), 0.7)).toMatchObject({
      outOfScope: 'buying',
    });
    // What the card has (a typo of it too), and a request that does not say what, stay with it.
    for (const text of ['buy the blue mugs', 'order a t-shrit', 'I want to pay for my stuff now', 'buy it']) {
      expect(withOfferedActions(index, { text, multiAgent: true }, routed('shop'), 0.7)).toEqual(routed('shop'));
    }
  });

  it('lets a request that names the agent by its initials buy what its card does not list ("order coffee at AH")', () => {
    const grocer = agent('grocer', 'Albert Heijn', 'Groceries: a basket and orders for home delivery.', ['basket']);
    const withGrocer = new DefaultRouter([...AGENTS, grocer]);
    const request = (text: string) => ({ text, multiAgent: true });
    expect(withGrocer.names('grocer', 'order coffee beans at AH')).toBe(true);
    const named = withOfferedActions(withGrocer, request('order coffee beans at AH'), routed('grocer'), 0.7);
    expect(named).toEqual(routed('grocer'));
    // Not named, the coffee is no thing the card lists: asked about, as before.
    const unnamed = withOfferedActions(withGrocer, request('order coffee beans'), routed('grocer'), 0.7);
    expect(unnamed).toMatchObject({ agentId: '', outOfScope: 'buying' });
    // "SL" names the Shopping List; a name of one word has no initials ("S" is not the Shop).
    expect(withGrocer.names('list', 'add it to the SL')).toBe(true);
    expect(withGrocer.names('shop', 'order a mug at S')).toBe(false);
  });

  it('lets a request that names the agent with a typo buy what its card does not list ("from kroeger")', () => {
    const grocer = agent('kroger', 'Kroger', 'Grocery pickup and delivery from our store.', ['basket']);
    const withGrocer = new DefaultRouter([...AGENTS, grocer]);
    expect(withGrocer.names('kroger', 'order a box of cereal from kroeger')).toBe(true);
    const named = withOfferedActions(
      withGrocer,
      { text: 'order a box of cereal from kroeger', multiAgent: true },
      routed('kroger'),
      0.7,
    );
    expect(named).toEqual(routed('kroger'));
  });

  it('gives a buying or booking that words and meaning left undecided to the only card offering it for its thing', () => {
    const undecided = (extra: Partial<Routing> = {}) => routed('', { confidence: 0.4, candidates: [], ...extra });
    const request = (text: string) => ({ text, multiAgent: true });
    // The meaning placed "buy a mug" with an everyday request no agent serves; the shop's card sells mugs.
    const mug = withOfferedActions(index, request('buy a blue mug'), undecided({ outOfScope: 'appliances' }), 0.7);
    expect(mug).toMatchObject({ agentId: 'shop', confidence: 0.85, candidates: ['shop'] });
    expect(mug.outOfScope).toBeUndefined();
    expect(mug.reasoning).toBe(
      "by words; but the request asks for buying (blue mug), which only shop's card offers for it",
    );
    expect(withOfferedActions(index, request('buy a blue mug'), undecided(), 0.9).confidence).toBe(0.9);
    // No card offers it for that thing, the thing is not said, two cards offer it, or it is no buying or booking.
    expect(withOfferedActions(index, request('buy a kettle'), undecided(), 0.7).agentId).toBe('');
    expect(withOfferedActions(index, request('buy some stuff'), undecided(), 0.7).agentId).toBe('');
    const twoShops = new DefaultRouter([...AGENTS, agent('outlet', 'Mug Outlet', 'Mugs for less', ['mug', 'cart'])]);
    expect(withOfferedActions(twoShops, request('buy a blue mug'), undecided(), 0.7).agentId).toBe('');
    expect(withOfferedActions(index, request('call the mug shop'), undecided(), 0.7).agentId).toBe('');
  });

  it.each([
    ['I need a new desk lamp', 'desk lamp'],
    ["I'd like another coffee mug for the office", 'coffee mug'],
    ['could you get me a new phone charger', 'phone charger'],
    ['we want some new towels', 'towels'],
    // No "new": a thing made or done, not bought; a thing had; no wanting at all.
    ['I want a coffee', undefined],
    ['I need a timer for ten minutes', undefined],
    ['my new lamp is broken', undefined],
    ['play the new album', undefined],
    ['I need my new glasses', undefined],
  ])('reads the new thing "%s" wants as %s', (text, thing) => expect(wantedNewThing(text)).toBe(thing));

  it('gives a new thing wanted, that words and meaning left undecided, to the only card selling it', () => {
    const undecided = routed('', { confidence: 0.4, candidates: [], outOfScope: 'appliances' });
    const mug = withOfferedActions(index, { text: "I'd like a new mug", multiAgent: true }, undecided, 0.7);
    expect(mug).toMatchObject({ agentId: 'shop', confidence: 0.85, candidates: ['shop'] });
    expect(mug.outOfScope).toBeUndefined();
    expect(mug.reasoning).toMatch(/asks for buying \(mug\), which only shop's card offers for it$/);
    // A thing no card sells stays undecided; a request whose words decided keeps its agent.
    const lamp = withOfferedActions(index, { text: 'I need a new lamp', multiAgent: true }, undecided, 0.7);
    expect(lamp).toEqual(undecided);
    const decided = routed('calendar');
    expect(withOfferedActions(index, { text: 'I need a new mug', multiAgent: true }, decided, 0.7)).toEqual(decided);
  });

  it('leaves an agent that offers the action, or that the request names, and requests asking for none', () => {
    const buy = { text: 'buy the blue mug', multiAgent: true };
    expect(withOfferedActions(index, buy, routed('shop'), 0.7)).toEqual(routed('shop'));
    const named = { text: 'book the plumber into the calendar', multiAgent: true };
    expect(withOfferedActions(index, named, routed('calendar'), 0.7)).toEqual(routed('calendar'));
    const plain = { text: 'when is the next train', multiAgent: true };
    expect(withOfferedActions(index, plain, routed('commute'), 0.7)).toEqual(routed('commute'));
  });

  it("takes an agent as named by its name only, not by the words of its id ('trains' is a topic)", () => {
    const rail = new DefaultRouter([agent('trains', 'Rail Departures', 'Live departures and delays', ['departures'])]);
    expect(rail.names('trains', 'book a train ticket to Leeds')).toBe(false);
    expect(rail.names('trains', 'ask Rail Departures about Leeds')).toBe(true);
    const book = { text: 'book a train ticket to Leeds', multiAgent: true };
    expect(withOfferedActions(rail, book, routed('trains'), 0.7)).toMatchObject({ agentId: '', outOfScope: 'booking' });
    const named = { text: 'book it through Rail Departures', multiAgent: true };
    expect(withOfferedActions(rail, named, routed('trains'), 0.7)).toEqual(routed('trains'));
  });

  it("takes an agent as named only when its name is the request's place or helper, not its topic", () => {
    const trains = new DefaultRouter([agent('rail', 'Trains', 'Live departures and delays')]);
    expect(trains.names('rail', 'book a train ticket to Leeds')).toBe(false);
    expect(trains.names('rail', 'use Trains to book me a seat to Leeds')).toBe(true);
    expect(trains.names('rail', 'ask trains when the next one leaves')).toBe(true);
    expect(index.names('calendar', 'book the plumber into my family calendar')).toBe(true);
    expect(index.names('calendar', 'what is on the family calendar')).toBe(true);
  });

  it("checks the conversation's agent when no other is sure: it would take the request", () => {
    const request = { text: 'book me a seat on it', previousAgentId: 'commute', multiAgent: true };
    const undecided = routed('scores', { confidence: 0.3 });
    expect(withOfferedActions(index, request, undecided, 0.7)).toMatchObject({ agentId: '', outOfScope: 'booking' });
  });

  it('asks about the part of a split request whose agent does not offer its action, and runs the rest', () => {
    const request = { text: 'when is the next train and bet a tenner on Liverpool', multiAgent: true };
    const split = routed('commute', {
      additionalAgents: ['scores'],
      candidates: ['commute', 'scores'],
      parts: { commute: 'when is the next train', scores: 'bet a tenner on Liverpool' },
    });
    const routing = withOfferedActions(index, request, split, 0.7);
    expect(routing).toMatchObject({
      agentId: 'commute',
      candidates: ['commute'],
      parts: { commute: 'when is the next train' },
      unplaced: [{ text: 'bet a tenner on Liverpool', candidates: [] }],
    });
    expect(routing.additionalAgents).toBeUndefined();
    expect(routing.outOfScope).toBeUndefined();
  });

  it('asks about a clause of a part whose agent does not offer its action, and keeps the rest of the part', () => {
    const request = { text: 'when is the next train, is it late and bet a tenner on Liverpool', multiAgent: true };
    const split = routed('commute', {
      candidates: ['commute'],
      parts: { commute: 'when is the next train and is it late and bet a tenner on Liverpool' },
    });
    expect(withOfferedActions(index, request, split, 0.7)).toMatchObject({
      agentId: 'commute',
      parts: { commute: 'when is the next train and is it late' },
      unplaced: [{ text: 'bet a tenner on Liverpool', candidates: [] }],
    });
  });

  it('takes a card that takes requests for a thing, or is called by the thing, as offering to get it', () => {
    const rides = new DefaultRouter([
      agent('cabs', 'Uber', 'Request a ride and check where your driver is.'),
      agent('meds', 'MedMinder', 'Reminds you to take your medication.'),
      agent('tunes', 'Tunes', 'Plays music and mixes', ['music', 'mix']),
    ]);
    // Called by what is ordered: the agent's name is the thing ("an Uber").
    expect(rides.isCalled('cabs', 'uber')).toBe(true);
    expect(rides.isCalled('cabs', 'uber eats')).toBe(false);
    const order = { text: 'order me an uber to the station', multiAgent: true };
    expect(withOfferedActions(rides, order, routed('cabs'), 0.7)).toEqual(routed('cabs'));
    // "Request a ride": booking a ride is offered, booking a table at a restaurant is not asked of it.
    const ride = { text: 'book me a ride home', multiAgent: true };
    expect(withOfferedActions(rides, ride, routed('cabs'), 0.7)).toEqual(routed('cabs'));
    const pill = { text: 'order my pills', multiAgent: true };
    expect(withOfferedActions(rides, pill, routed('meds'), 0.7)).toMatchObject({ agentId: '', outOfScope: 'buying' });
  });

  it('takes an agent named by a word of a name written as one as named ("order from Skip": SkipTheDishes)', () => {
    const dinner = new DefaultRouter([
      agent('skip', 'SkipTheDishes', "Canada's favourite way to order in. Local restaurants, delivered fast."),
      agent('tunes', 'JioSaavn', 'Bollywood and Punjabi hits'),
    ]);
    const order = { text: 'order butter chicken from Skip', multiAgent: true };
    expect(withOfferedActions(dinner, order, routed('skip'), 0.7)).toEqual(routed('skip'));
    // A name with a word that is no term in it ("Just Eat") is named whole.
    const takeaway = new DefaultRouter([
      agent('justeat', 'Just Eat', "Ireland's favourite way to order takeaway, delivered to your door."),
    ]);
    const spice = { text: 'order a spice bag from Just Eat', multiAgent: true };
    expect(withOfferedActions(takeaway, spice, routed('justeat'), 0.7)).toEqual(routed('justeat'));
    // Not named, the card still does not offer butter chicken.
    const plain = { text: 'order butter chicken', multiAgent: true };
    expect(withOfferedActions(dinner, plain, routed('skip'), 0.7)).toMatchObject({ agentId: '', outOfScope: 'buying' });
  });

  it('gives the part of a split request its agent does not offer to the only card offering it for that thing', () => {
    const rides = new DefaultRouter([
      agent('cabs', 'Cabs', 'Request a ride and check where your driver is.'),
      agent('meds', 'MedMinder', 'Reminds you to take your medication.'),
      agent('tunes', 'Tunes', 'Plays music and mixes', ['music', 'mix']),
    ]);
    const request = { text: 'book me a ride to the gym and play my workout mix', multiAgent: true };
    const split = routed('meds', {
      additionalAgents: ['tunes'],
      candidates: ['meds', 'tunes'],
      parts: { meds: 'book me a ride to the gym', tunes: 'play my workout mix' },
    });
    const routing = withOfferedActions(rides, request, split, 0.7);
    expect(routing).toMatchObject({
      agentId: 'tunes',
      additionalAgents: ['cabs'],
      parts: { tunes: 'play my workout mix', cabs: 'book me a ride to the gym' },
    });
    expect(routing.unplaced).toBeUndefined();
    expect(routing.reasoning).toMatch(/asks for booking \(ride\), which only cabs's card offers for it$/);
  });
});
