import { agentCard as agent, CAR_AND_THERMOSTAT } from './agent-card.fixture';
import { clauses } from './clauses';
import { DefaultRouter } from './default-router';
import { isFragment, properNames, stem, terms, unquoted, userUtterance } from './text-analysis';
import { asksWhatFollows, leavesOutItsThing, refersBack, standsAlone, verbActingOnIt } from './conversation-cues';

const AGENTS = [
  agent(
    'lights',
    'Lights',
    'Turns lights on and off and dims them',
    ['lights', 'lamp'],
    ['turn on the kitchen lights'],
  ),
  agent('music', 'Music', 'Plays songs, artists or genres in any room', ['music', 'audio'], ['play jazz']),
  agent('weather', 'Weather', 'Forecasts and current conditions', ['weather', 'forecast', 'rain']),
];

describe('DefaultRouter', () => {
  const router = new DefaultRouter(AGENTS);
  const route = (text: string, previousAgentId?: string) => router.route({ text, previousAgentId, multiAgent: true });

  it('routes a clear single-intent request with high confidence', () => {
    const choice = route('Turn on the kitchen lights');
    expect(choice.agentId).toBe('lights');
    expect(choice.additionalAgents).toBeUndefined();
    expect(choice.confidence).toBeGreaterThanOrEqual(0.8);
  });

  it('splits a multi-intent request into agents in request order', () => {
    const choice = route('turn on the kitchen lights and play jazz music');
    expect(choice).toMatchObject({ agentId: 'lights', additionalAgents: ['music'] });
    expect(choice.parts).toEqual({ lights: 'turn on the kitchen lights', music: 'play jazz music' });
    expect(choice.confidence).toBeGreaterThanOrEqual(0.7);
  });

  it('names in a question only agents whose cards have a word of the request that is not generic', () => {
    const routing = router.route({ text: 'did the Lakers pull it off last night', multiAgent: false });
    // "off" is on the lights' card ("Turns lights on and off"), and generic: not worth naming.
    expect(routing.confidence).toBeLessThan(0.7);
    expect(routing.candidates).toEqual([]);
    expect(router.route({ text: 'is the forecast lamp on', multiAgent: false }).candidates.sort()).toEqual([
      'lights',
      'weather',
    ]);
  });

  it('puts a card with a word saying what is asked before one with only generic words', () => {
    const books = new DefaultRouter([
      agent('switches', 'Switches', 'Plugs and switches', ['on', 'off'], ['turn off the plug']),
      agent('books', 'Audiobooks', 'Listen to a book', ['audiobook', 'chapter']),
    ]);
    // "off" scores more (a tag of the switches' card; "book" is in a description), but it is generic.
    const routing = books.route({ text: 'pick up where I left off in my book', multiAgent: false });
    expect(routing.agentId).toBe('books');
    expect(routing.candidates).toEqual(['books']);
    // Generic words alone still rank the cards that have them.
    expect(books.route({ text: 'turn it off', multiAgent: false }).agentId).toBe('switches');
  });

  it('leaves a split undecided when a clause rests on one card word beside words its card does not have', () => {
    const home = new DefaultRouter([
      agent('fans', 'Fans', 'Ceiling fans', ['fan']),
      agent('forecast', 'Forecast', 'Weather forecasts', ['temperature', 'rain']),
      agent('heating', 'Heating', 'Thermostat'),
    ]);
    const split = (text: string) => home.route({ text, multiAgent: true });
    // "lower" is on no card: the forecast's "temperature" alone does not decide what is asked.
    expect(split('turn the fan on and lower the temperature')).toMatchObject({
      agentId: 'fans',
      additionalAgents: ['forecast'],
      tentative: true,
    });
    expect(split('turn the fan on and tell me the temperature').tentative).toBeUndefined();
  });

  it('tells when the best card has the strong words only as part of tags of several words ("seat heating")', () => {
    const home = new DefaultRouter([
      agent('car', 'Polestar', 'Your car, connected', ['pre-heat', 'seat heating', 'charge level', 'lock']),
      agent('thermostat', 'Netatmo', 'Smart Thermostat and Smart Radiator Valves'),
    ]);
    // "heating" is the car's only as a word of "seat heating": what it heats is another thing.
    expect(home.route({ text: 'set the heating to 20', multiAgent: false })).toMatchObject({
      agentId: 'car',
      partOfTags: true,
    });
    // The tag whole, or a tag of its own beside it, is the card's.
    expect(home.route({ text: 'turn on the seat heating', multiAgent: false }).partOfTags).toBeUndefined();
    expect(
      home.route({ text: 'lock the car and check the charge level', multiAgent: false }).partOfTags,
    ).toBeUndefined();
    expect(home.route({ text: 'lock it', multiAgent: false }).partOfTags).toBeUndefined();
  });

  it('leaves a split undecided when a clause rests on words its card has only as parts of tags', () => {
    const split = new DefaultRouter([...CAR_AND_THERMOSTAT, AGENTS[1]]).route({
      text: 'put the heating down to 17 and play some jazz music',
      multiAgent: true,
    });
    // "heating" is the car's only in "seat heating": the model judges the clauses (the thermostat's, by meaning).
    expect(split).toMatchObject({ agentId: 'car', additionalAgents: ['music'], tentative: true });
  });

  it('takes a command its card takes as decided, the word it lacks saying which one', () => {
    const home = new DefaultRouter([
      agent('plugs', 'Switches', 'Turn smart plugs and switches on or off', ['plug', 'switch']),
      agent('forecast', 'Forecast', 'Weather forecasts', ['temperature', 'rain']),
      agent('timers', 'Timers', 'Sets timers and alarms'),
    ]);
    // "turn" and "off" are the plugs' card's words, "plug" its tag: "tv" only says which plug.
    const split = home.route({ text: 'turn off the tv plug and set an alarm for 6', multiAgent: true });
    expect(split).toMatchObject({ agentId: 'plugs', additionalAgents: ['timers'] });
    expect(split.tentative).toBeUndefined();
    expect(home.route({ text: 'turn off the tv plug', multiAgent: false }).commandsAgent).toBe(true);
    // "lower" says what is asked, and no card has it; a question does not command anything.
    expect(home.route({ text: 'lower the temperature', multiAgent: false }).commandsAgent).toBeUndefined();
    expect(home.route({ text: 'why is the sky rain', multiAgent: false }).commandsAgent).toBeUndefined();
    // A particle is no command: "up" is on a calendar that looks things up, "events" its tag.
    const calendar = new DefaultRouter([
      agent('calendar', 'Calendar', 'Look up, add and move appointments and events', ['event']),
      agent('news', 'News', 'Headlines'),
    ]);
    expect(calendar.route({ text: 'catch me up on current events', multiAgent: false }).commandsAgent).toBeUndefined();
  });

  it('takes no word saying how many as evidence of what is asked', () => {
    const shop = new DefaultRouter([
      agent('shop', 'Shop', 'Mugs and t-shirts', ['mug', 'cart'], ['add two mugs to my cart']),
      ...AGENTS,
    ]);
    // "two" is on the shop's card, in an example: the request's words match nothing else there.
    const tickets = shop.route({ text: 'buy two tickets for the match', multiAgent: false });
    expect(tickets.agentId).toBe('shop');
    expect(tickets.confidence).toBeLessThanOrEqual(0.45);
    expect(shop.route({ text: 'add two mugs', multiAgent: false }).confidence).toBeGreaterThanOrEqual(0.7);
  });

  it('routes through typos, a corrected word counting a little less than one spelt right', () => {
    expect(route('paly some jazz musik')).toMatchObject({ agentId: 'music' });
    expect(route('whats the wether tomorow')).toMatchObject({ agentId: 'weather' });
    expect(route('turn on the kitchn ligths').agentId).toBe('lights');
    expect(route('play music').confidence).toBeGreaterThan(route('paly musik').confidence);
  });

  it('corrects no typo to a word that only joins a sentence ("whether" on a card is no thing it does)', () => {
    const router = new DefaultRouter([
      agent('home', 'Home Control', 'Locks the doors and says whether they are locked', ['lock', 'door']),
      agent('weather', 'Weather', 'Forecasts for your town', ['forecast']),
      ...AGENTS.filter((a) => a.id !== 'weather'),
    ]);
    // "wether" is one letter from "weather" and from "whether" alike.
    expect(router.spelledOut('whats the wether tomorow')).toBe('whats the weather tomorrow');
    expect(router.route({ text: 'whats the wether tomorow', multiAgent: false }).agentId).toBe('weather');
  });

  it('spells a corrected word out in the form the typo is one edit from ("paly" is "play", not "plays")', () => {
    const music = new DefaultRouter([agent('music', 'Music', 'Plays music on the speakers', ['play', 'jazz'])]);
    expect(music.spelledOut('paly some jazz')).toBe('play some jazz');
    expect(music.spelledOut('plasy some jazz')).toBe('plays some jazz');
    // Chat spellings are written out for the model, as people mean them.
    expect(music.spelledOut('wat time do the warriers play tonite')).toBe('what time do the warriers play tonight');
    // A card that writes the word only in a form two edits away: the form everyday speech has.
    const todo = new DefaultRouter([agent('todo', 'To Do', 'Lists, tasks and reminders', ['tasks', 'reminders'])]);
    expect(todo.spelledOut('remnd me to pay rent friday')).toBe('remind me to pay rent friday');
  });

  it('spells out typos the stemmer cannot see through, by the card words around them ("shoppin lst")', () => {
    const household = new DefaultRouter([
      agent('list', 'Shopping List', 'Keeps the household grocery list.', ['shopping', 'groceries']),
      agent('camera', 'Cameras', 'Camera feeds', [], ['was there motion in the garden last night?']),
    ]);
    expect(household.spelledOut('whats on the shoppin lst')).toBe('whats on the shopping list');
    expect(household.route({ text: 'whats on the shoppin lst', multiAgent: false }).agentId).toBe('list');
    // "lst" alone could be "list" or "last": left as it is.
    expect(household.spelledOut('add milk to the lst')).toBe('add milk to the lst');
  });

  it('spells out for the model typos of words people use about the home that no card has, as evidence of nothing', () => {
    const robot = new DefaultRouter([
      agent('robot', 'Robot Vacuum', 'Robot vacuums that vacuum and mop your floors', ['vacuum', 'mop']),
      agent('mower', 'Mower', 'Robot lawn mower: start, stop and schedule the mowing', ['mower', 'lawn']),
      agent('steps', 'Step Counter', 'Counts your steps', ['count']),
    ]);
    // Everyday speech's "hoover" (EVERYDAY_DOMAINS), not on either card.
    expect(robot.spelledOut('start the hoovr')).toBe('start the hoover');
    expect(robot.spelledOut('turn off the bathrom light')).toBe('turn off the bathroom light');
    // A word of three letters by the one everyday word a letter put back makes ("dor": door).
    expect(robot.spelledOut("who's at the dor")).toBe("who's at the door");
    // Card words are no evidence of it: the ranking is what it was with the typo.
    expect(robot.route({ text: 'start the hoovr', multiAgent: false })).toEqual(
      robot.route({ text: 'start the zzzzz', multiAgent: false }),
    );
    // Names (capitalised after the first word), rarer words spelt right, and words spelt right are left alone.
    expect(robot.spelledOut('play some Stevie Wonder')).toBe('play some Stevie Wonder');
    expect(robot.spelledOut('how do I make scones')).toBe('how do I make scones');
    expect(robot.spelledOut('give the bedroom a quick hoover')).toBe('give the bedroom a quick hoover');
    // As the ranking does, a capitalised common word is no typo of a card's word ("Mount" is not "count").
    expect(robot.spelledOut('how tall is Mount Everest')).toBe('how tall is Mount Everest');
  });

  describe('generic words', () => {
    const shared = new DefaultRouter([
      ...AGENTS,
      agent('shop', 'Shop', 'Searches products and fills your cart', ['shop', 'cart', 'pay', 'order', 'checkout']),
      agent('radio', 'Radio', 'Whatever is on now', ['radio', 'now', 'station']),
    ]);
    const decide = (text: string, previousAgentId?: string) =>
      shared.route({ text, previousAgentId, multiAgent: false });

    it.each(['pay the electricity bill', 'order a pizza', 'cancel it tomorrow'])(
      'alone, they never reach the threshold: "%s"',
      (text) => {
        expect(decide(text).confidence).toBeLessThan(0.5);
      },
    );

    it('count with a word that is not generic', () => {
      expect(decide('order a new shop cart')).toMatchObject({ agentId: 'shop' });
      expect(decide('order a new shop cart').confidence).toBeGreaterThanOrEqual(0.7);
    });

    it('do not outweigh the conversation in a follow-up', () => {
      expect(decide('turn it off now', 'lights').agentId).toBe('lights');
      expect(decide('switch the radio station now', 'lights').agentId).toBe('radio');
    });
  });

  it('leaves a clause no card matches unplaced, to be asked about, instead of giving it to a neighbour', () => {
    const choice = route('turn on the kitchen lights and fetch my slippers');
    expect(choice).toMatchObject({ agentId: 'lights', parts: { lights: 'turn on the kitchen lights' } });
    expect(choice.additionalAgents).toBeUndefined();
    expect(choice.unplaced).toEqual([{ text: 'fetch my slippers', candidates: [] }]);
    expect(choice.confidence).toBeGreaterThanOrEqual(0.7);
    // A one-word fragment still belongs to the clause before it.
    const fragment = route('play jazz and blues');
    expect(fragment.agentId).toBe('music');
    expect(fragment.unplaced).toBeUndefined();
  });

  it('keeps a clause that names nothing with the clause before it', () => {
    const choice = route('play some rock and roll music');
    expect(choice.agentId).toBe('music');
    expect(choice.additionalAgents).toBeUndefined();
  });

  it('is unsure when nothing or several agents match, naming only those that matched', () => {
    const none = route('do something nice');
    expect(none.confidence).toBe(0);
    expect(none.candidates).toEqual([]);
    const split = new DefaultRouter([
      agent('a', 'Kitchen helper', 'Kitchen things', ['kitchen']),
      agent('b', 'Kitchen display', 'Kitchen screen', ['kitchen']),
    ]).route({ text: 'kitchen', multiAgent: true });
    expect(split.confidence).toBeLessThanOrEqual(0.5);
    expect(split.candidates.sort()).toEqual(['a', 'b']);
  });

  it('gives a follow-up that refers back and names no agent to the previous agent', () => {
    expect(route('turn it off', 'music')).toMatchObject({ agentId: 'music', confidence: 0.8 });
    // Naming an agent wins over the conversation's history.
    expect(route('turn off the lights', 'music').agentId).toBe('lights');
  });

  it("keeps a follow-up that only adjusts what is going on with the conversation, over another card's word for it", () => {
    const home = new DefaultRouter([
      ...AGENTS,
      agent('tv', 'TV', 'Controls the living room TV', ['tv', 'pause', 'volume'], ['pause the film']),
    ]);
    for (const text of [
      'pause it',
      'pause',
      'a bit louder please',
      'turn the volume down',
      'next one',
      'skip to the next chapter',
      'go back a track',
    ]) {
      expect(home.route({ text, previousAgentId: 'music', multiAgent: true })).toMatchObject({
        agentId: 'music',
        refersBack: true,
      });
    }
    // Naming the agent, or saying what else to do, is no adjustment.
    expect(home.route({ text: 'pause the tv', previousAgentId: 'music', multiAgent: true }).agentId).toBe('tv');
    expect(home.route({ text: 'pause the weather', previousAgentId: 'music', multiAgent: true }).refersBack).toBe(
      undefined,
    );
    // With no conversation, the card's word decides.
    expect(home.route({ text: 'pause it', multiAgent: true }).agentId).toBe('tv');
    // "a bit hotter" after the mug adjusts the mug, though "hot" is the heating's word.
    const desk = new DefaultRouter([
      agent('mug', 'Ember', 'The mug keeps your coffee at the temperature you set', ['mug', 'coffee']),
      agent('heating', 'Climote', 'Gas heating and hot water', ['heating', 'hot water', 'boost']),
    ]);
    expect(desk.route({ text: 'a bit hotter', previousAgentId: 'mug', multiAgent: true })).toMatchObject({
      agentId: 'mug',
      adjusts: true,
    });
  });

  it('takes up what carries on from the conversation ("what about saturday") as a follow-up', () => {
    expect(route('what about on saturday', 'weather')).toMatchObject({ agentId: 'weather', refersBack: true });
    expect(route('and in the bedroom', 'lights')).toMatchObject({ agentId: 'lights', refersBack: true });
  });

  it("takes a name only one card has, written as a name, as that card's (a thin card's pet, not a fan's mode)", () => {
    const farm = new DefaultRouter([
      agent('collar', 'Halo Collar', 'Halo Collar on Floss, the border collie: live GPS location and virtual fences.'),
      agent('fan', 'Dyson', 'Purifier fan: set it to Auto or Night mode, and the heat up or down.', ['fan', 'heat']),
      agent('tv', 'TV', 'The big TV in the lounge', ['tv', 'channel']),
    ]);
    expect(farm.route({ text: "where's Floss", multiAgent: true })).toMatchObject({ agentId: 'collar' });
    expect(farm.route({ text: "where's Floss", multiAgent: true }).confidence).toBeGreaterThanOrEqual(0.7);
    // Not written as a name, "floss" is a word like any other on the line: weak evidence.
    expect(farm.route({ text: 'we need floss', multiAgent: true }).confidence).toBeLessThan(0.7);
    // The fan's mode "Auto" is a name on its card, but not in a request that writes it in lower case.
    expect(farm.route({ text: 'put the tv on auto', multiAgent: true }).agentId).toBe('tv');
    // A show's title is a name of the player's, though a word of it is another card's tag.
    const evening = new DefaultRouter([
      agent('player', 'TVNZ+', 'Shows on demand: Country Calendar, Fair Go and more.'),
      agent('diary', 'Diary', 'Your family calendar', ['calendar', 'appointments']),
    ]);
    expect(evening.route({ text: 'put Country Calendar on', multiAgent: true })).toMatchObject({ agentId: 'player' });
    expect(evening.route({ text: 'put Country Calendar on', multiAgent: true }).confidence).toBeGreaterThan(0.7);
    expect(evening.route({ text: "what's on the calendar", multiAgent: true }).agentId).toBe('diary');
  });

  it('routes "and" with a command of its own by its words, though a word of it is on the conversation\'s card', () => {
    // "kitchen" is on the lights' card: as a carrying-on, the request stayed with the lights.
    expect(route('and play some jazz in the kitchen', 'lights')).toMatchObject({ agentId: 'music' });
    expect(route('and play some jazz in the kitchen', 'lights').refersBack).toBeUndefined();
    expect(route('and the kitchen too', 'lights')).toMatchObject({ agentId: 'lights', refersBack: true });
  });

  it('reads two words a card writes as one ("check out" is "checkout")', () => {
    const shop = new DefaultRouter([
      ...AGENTS,
      agent('shop', 'Shop', 'Mugs and hoodies', ['cart', 'checkout'], ['add a mug to my cart']),
    ]);
    expect(shop.route({ text: 'check out', multiAgent: false })).toMatchObject({ agentId: 'shop', evidenceTerms: 1 });
  });

  it('counts the words a request says that the chosen card does not have, and whether it names the agent', () => {
    const rain = route('will it rain on the picnic');
    expect(rain).toMatchObject({ agentId: 'weather', evidenceTerms: 1, otherTerms: 1 });
    expect(rain.namesAgent).toBeUndefined();
    expect(route('put the picnic in the weather')).toMatchObject({ agentId: 'weather', namesAgent: true });
  });

  it('counts no word saying which one ("my *first* appointment") as a sign that another card is meant', () => {
    const calendar = new DefaultRouter([
      ...AGENTS,
      agent('calendar', 'Family Calendar', 'The shared calendar', ['calendar', 'appointment']),
    ]);
    const first = calendar.route({ text: 'what time is my first appointment tomorrow', multiAgent: false });
    expect(first).toMatchObject({ agentId: 'calendar', evidenceTerms: 1, otherTerms: 0 });
    const dentist = calendar.route({ text: 'what time is my dentist appointment', multiAgent: false });
    expect(dentist).toMatchObject({ agentId: 'calendar', evidenceTerms: 1, otherTerms: 1 });
  });

  it('counts a word saying which one as no evidence of what is asked ("when do the Yankees play *next*")', () => {
    const player = new DefaultRouter([
      ...AGENTS.slice(0, 1),
      agent('player', 'Player', 'Plays songs', ['play', 'next']),
    ]);
    const yankees = player.route({ text: 'when do the Yankees play next', multiAgent: false });
    expect(yankees).toMatchObject({ agentId: 'player', evidenceTerms: 1, otherTerms: 1 });
    expect(player.route({ text: 'next song', multiAgent: false })).toMatchObject({ agentId: 'player' });
  });

  it("takes a word of an agent's id as evidence of its topic, not as naming it", () => {
    const rail = new DefaultRouter([...AGENTS, agent('trains', 'Rail Departures', 'Live departures and delays')]);
    const train = rail.route({ text: 'is my train late', multiAgent: false });
    expect(train).toMatchObject({ agentId: 'trains', evidenceTerms: 1 });
    expect(train.namesAgent).toBeUndefined();
    expect(rail.route({ text: 'ask rail departures', multiAgent: false }).namesAgent).toBe(true);
  });

  it('grows its index with the agents, not its work per decision beyond the postings touched', () => {
    const many = Array.from({ length: 1000 }, (_, i) =>
      agent(`agent-${i}`, `Agent ${i}`, `Handles topic${i}`, [`topic${i}`]),
    );
    const big = new DefaultRouter([...many, ...AGENTS]);
    expect(big.size).toBe(1003);
    expect(big.route({ text: 'will it rain tomorrow', multiAgent: true }).agentId).toBe('weather');
  });

  describe('quoted text', () => {
    it('is what is said, not what is asked: no card word evidence when the words outside the quotes say something', () => {
      // Without: the lights' card, by "turn", "on" and "lights" (fifth household: the door lock took translate "lock the door" into Spanish).
      expect(route('translate "turn on the lights" into Spanish')).toMatchObject({ agentId: '', candidates: [] });
      // Without: the weather's card, by its tag "rain", against the music's "play".
      expect(route("play 'Here Comes the Rain Again'")).toMatchObject({ agentId: 'music', candidates: ['music'] });
    });

    it('is still the whole request when nothing is outside the quotes, and agents receive it whole', () => {
      expect(route('"will it rain"').agentId).toBe('weather');
      // An apostrophe pairs with nothing: "the kids'" quotes no "party".
      expect(route("is it going to rain on the kids' party").agentId).toBe('weather');
      const split = route('play “Here Comes the Rain Again” and turn on the kitchen lights');
      expect(split.parts).toEqual({ lights: 'turn on the kitchen lights' });
      expect(split.unplaced).toEqual([{ text: 'play “Here Comes the Rain Again”', candidates: ['music'] }]);
    });
  });
});

describe('text analysis', () => {
  it('leaves quoted text out of the words that are evidence, apostrophes not taken for quotes', () => {
    expect(unquoted('translate "lock the door" into Spanish')).toBe('translate  ,  into Spanish');
    expect(unquoted('add “call the plumber” to my to-do list')).toBe('add  ,  to my to-do list');
    expect(unquoted("text Jamie 'I'm running late'")).toBe('text Jamie  , ');
    expect(unquoted('text Mum ‘don’t wait up’')).toBe('text Mum  , ');
    // Single quotes around several words only; apostrophes pair with nothing.
    expect(unquoted("what's 'cheers' in Spanish?")).toBe("what's 'cheers' in Spanish?");
    expect(unquoted("what's the weather and what's on my calendar")).toBe(
      "what's the weather and what's on my calendar",
    );
    expect(unquoted("turn on the kids' lights, it's dark")).toBe("turn on the kids' lights, it's dark");
    // Nothing said outside the quotes: the quote is the request.
    expect(unquoted('"lock the door" please')).toBe('"lock the door" please');
  });

  it('knows a yes/no question about the asker from one that asks for something', () => {
    for (const text of [
      'do I need to stop for petrol',
      'will we get through the night',
      'Am I going to make it',
      'should we leave now',
    ]) {
      expect([text, asksWhatFollows(text)]).toEqual([text, true]);
    }
    for (const text of [
      'can I get a taxi',
      'could we book a table',
      'will it rain',
      'do you sell mugs',
      'I need petrol',
    ]) {
      expect([text, asksWhatFollows(text)]).toEqual([text, false]);
    }
  });

  it('takes the user words out of a Home Assistant prompt', () => {
    expect(userUtterance('You are Lucia. Devices: lights.\n\nUser: play jazz')).toBe('play jazz');
    expect(userUtterance('plain request')).toBe('plain request');
  });

  it('stems the plural and verb forms agents and users write', () => {
    expect(['lights', 'playing', 'dimmed', 'plays'].map(stem)).toEqual(['light', 'play', 'dim', 'play']);
    // "news" is not the plural of "new"; "-es" after ch, sh, x or zz is the plural's.
    expect(stem('news')).toBe('news');
    expect(['switches', 'dishes', 'boxes', 'matches', 'glasses'].map(stem)).toEqual([
      'switch',
      'dish',
      'box',
      'match',
      'glass',
    ]);
  });

  it('undoes contractions and drops single letters: "don\'t" is not the "t" of "t-shirt"', () => {
    expect(terms("I don't like this one")).toEqual(['one']);
    expect(terms("it's freezing, what's on")).toEqual(['freez', 'on']);
    expect(terms('whens my next appointment')).toEqual(['next', 'appointment']);
  });

  it('tells a fragment of a list from a clause, and what refers back', () => {
    expect(['blues', 'some blues', 'the kitchen', 'any ideas?'].map(isFragment)).toEqual([true, true, true, true]);
    expect(["it's freezing in here", 'tell me the headlines'].map(isFragment)).toEqual([false, false]);
    expect(['turn it off', 'what about tomorrow', 'and the kitchen?'].map(refersBack)).toEqual([true, true, true]);
    expect(refersBack('play some jazz')).toBe(false);
    // "and" joining a command of its own, with what it acts on, is a new request; not with an anaphor.
    expect(['and set the grill to 120', 'also remind me to ring the school'].map(refersBack)).toEqual([false, false]);
    expect(['and turn it off', 'and tomorrow night?', 'and play jazz', 'and the day after'].map(refersBack)).toEqual([
      true,
      true,
      true,
      true,
    ]);
  });

  it('finds the names in a line: words capitalised inside a sentence, alone or in a run', () => {
    expect(properNames("Halo Collar on Floss, the border collie. Jaylen's trips in the Civic.")).toEqual([
      'Collar',
      'Floss',
      'Civic',
    ]);
    expect(properNames("Turn on Keep Warm, watch Country Calendar on Friday. I said I'd like TVNZ 1")).toEqual([
      'Keep Warm',
      'Country Calendar',
      'TVNZ',
    ]);
  });

  it('tells a request of its own from one that leans on the conversation', () => {
    expect(standsAlone('pencil in a picnic with the neighbours on Sunday')).toBe(true);
    expect(
      ['write my essay about him', 'what did she say in her speech', 'and what about the weekend then', 'louder'].map(
        standsAlone,
      ),
    ).toEqual([false, false, false, false]);
  });

  it('cuts requests at conjunctions and punctuation', () => {
    expect(clauses('lights on, then play jazz and also close the blinds')).toEqual([
      'lights on',
      'play jazz',
      'close the blinds',
    ]);
    // The full stops of initials cut nothing; a full stop that ends a sentence does.
    expect(clauses('play Fontaines D.C. on SoundCloud')).toEqual(['play Fontaines D.C. on SoundCloud']);
    expect(clauses('turn off the lights. play jazz')).toEqual(['turn off the lights', 'play jazz']);
    // "nice and" says how: one clause.
    expect(clauses('make the bedroom nice and toasty before bed and play jazz')).toEqual([
      'make the bedroom nice and toasty before bed',
      'play jazz',
    ]);
  });

  it('does not cut at the "and" of things added or ordered together, unless a verb follows it', () => {
    expect(clauses('add flour and sugar to the grocery list')).toEqual(['add flour and sugar to the grocery list']);
    expect(clauses('add salt and pepper and olive oil to the list')).toEqual([
      'add salt and pepper and olive oil to the list',
    ]);
    expect(clauses('order bread and milk from Sixty60')).toEqual(['order bread and milk from Sixty60']);
    expect(clauses('add milk and set the heating to 20')).toEqual(['add milk', 'set the heating to 20']);
    expect(clauses('add milk and switch to the news')).toEqual(['add milk', 'switch to the news']);
    expect(clauses('put Still Game on and get me an audiobook from the library')).toEqual([
      'put Still Game on',
      'get me an audiobook from the library',
    ]);
    expect(clauses('play some jazz and add coffee to the shopping list')).toEqual([
      'play some jazz',
      'add coffee to the shopping list',
    ]);
  });

  it('keeps a clause that only says how much, how long or when with its neighbour', () => {
    expect(clauses('start a timer for the cake, 40 minutes')).toEqual(['start a timer for the cake, 40 minutes']);
    expect(clauses('I need to get up early tomorrow, 5:45')).toEqual(['I need to get up early tomorrow, 5:45']);
    expect(clauses('at 7 am, wake me up')).toEqual(['at 7 am, wake me up']);
    expect(clauses('dim the lights to 30, then play jazz')).toEqual(['dim the lights to 30', 'play jazz']);
    expect(clauses('add a chore for Maya: unload the dishwasher, 3 dollars')).toEqual([
      'add a chore for Maya: unload the dishwasher, 3 dollars',
    ]);
    expect(clauses('40 minutes')).toEqual(['40 minutes']);
  });

  it('keeps a clause that only steers the conversation with its neighbour', () => {
    expect(clauses('never mind, just unlock the door for Sam')).toEqual(['never mind, just unlock the door for Sam']);
    expect(clauses('turn off the lights, thanks')).toEqual(['turn off the lights, thanks']);
    expect(clauses('oh and, play some jazz')).toEqual(['oh, play some jazz']);
    expect(clauses('ok thank you, then lock the door and close the blinds')).toEqual([
      'ok thank you, lock the door',
      'close the blinds',
    ]);
    expect(clauses('is the garage door shut, by the way')).toEqual(['is the garage door shut, by the way']);
    expect(clauses('never mind')).toEqual(['never mind']);
    const choice = new DefaultRouter(AGENTS).route({ text: 'never mind, just play some jazz', multiAgent: true });
    expect(choice).toMatchObject({ agentId: 'music' });
    expect(choice.unplaced).toBeUndefined();
  });

  it('keeps a clause that only acts on what the clause before it named with that clause', () => {
    expect(clauses("Sofia's twinkly lights, turn them on")).toEqual(["Sofia's twinkly lights, turn them on"]);
    expect(clauses('my DoorDash guy is stuck downstairs, open up for him')).toHaveLength(1);
    expect(clauses('I owe Jaylen for gas, square up with him')).toHaveLength(1);
    expect(clauses("it's dark as a cave in here, can you warm it up a bit")).toHaveLength(1);
    // Not a question, whose "it" is often nobody's, nor a clause that names a thing of its own.
    expect(clauses("what's on the calendar for saturday and will it be sunny")).toHaveLength(2);
    expect(clauses('lock the car and start charging it')).toEqual(['lock the car', 'start charging it']);
    expect(clauses("check Sofia's grades and venmo her 10 bucks")).toHaveLength(2);
    // After a request, what is asked next is a request of its own, however it points back.
    expect(clauses('park the mower and remind me to pay him at 5')).toHaveLength(2);
    expect(clauses('the dog has been shedding everywhere, can you deal with it')).toHaveLength(1);
  });

  it('reads two card words one after the other as what a card is about, as a tag ("garage door"), not a place', () => {
    const home = new DefaultRouter([
      agent('garage', 'B&D', 'B&D Smartphone Control for the roller garage door under the house.'),
      agent(
        'solar',
        'Solar',
        'The solar panels on the roof and the home battery in the garage',
        ['solar', 'battery', 'charge', 'grid', 'power'],
        ['how full is the battery', 'how much power are the panels making'],
      ),
      agent('tv', 'TV', 'The TV in the living room', ['TV', 'channel', 'record'], ['put the news on']),
      agent('doorbell', 'Doorbell', 'Video doorbell on the front door', ['doorbell', 'door', 'visitor']),
    ]);
    const garage = home.route({ text: 'open the garage door', multiAgent: true });
    expect(garage).toMatchObject({ agentId: 'garage' });
    expect(garage.confidence).toBeGreaterThanOrEqual(0.7);
    // Two words ending in a part of the home say where: no more evidence than each word is.
    const score = (text: string) => home.route({ text, multiAgent: true }).reasoning;
    expect(score('vacuum the living room')).toBe(score('vacuum the room living'));
  });

  it("keeps with the conversation what does something to its thing, another card's only word its verb", () => {
    const home = new DefaultRouter([
      agent('garage', 'B&D', 'B&D Smartphone Control for the roller garage door under the house.'),
      agent(
        'aircon',
        'Air-con',
        'Ducted air-con with zones',
        ['zone', 'open', 'close', 'cooling'],
        ['close the bedroom zone'],
      ),
    ]);
    expect(home.route({ text: 'close it again', previousAgentId: 'garage', multiAgent: true })).toMatchObject({
      agentId: 'garage',
      adjusts: true,
    });
    // Not a question, nor a request that says what else it is about.
    expect(verbActingOnIt('is it cold out?')).toBeUndefined();
    expect(verbActingOnIt('and close them')).toBe('close');
    expect(home.route({ text: 'close the bedroom zone', previousAgentId: 'garage', multiAgent: true }).agentId).toBe(
      'aircon',
    );
  });

  it('reads a word a card writes as two by its parts too ("eAudiobooks": audiobooks)', () => {
    const router = new DefaultRouter([
      agent('library', 'Library', 'Borrow eBooks and eAudiobooks for free with your library card'),
      agent(
        'tv',
        'TV box',
        'Channels, recordings and the TV guide',
        ['TV', 'channel', 'record'],
        ['play my recordings'],
      ),
    ]);
    expect(router.route({ text: 'play my audio book', multiAgent: true })).toMatchObject({ agentId: 'library' });
    expect(router.route({ text: 'borrow an ebook', multiAgent: true })).toMatchObject({ agentId: 'library' });
  });

  it('keeps a clause that only adds to the request - what kind, or nothing named - with it', () => {
    expect(clauses("I'd like a good book read to me, something by Ian Rankin")).toHaveLength(1);
    expect(clauses('play some music, maybe something chill')).toHaveLength(1);
    expect(clauses('is that the carer at the door, let me see')).toHaveLength(1);
    expect(clauses('show me the back yard and let me see')).toHaveLength(1);
    // Not a clause that tells ("something's burning"), nor a question.
    expect(clauses("turn the oven off, something's burning")).toHaveLength(1); // one request with its context
    expect(clauses('turn the oven off and something is burning')).toHaveLength(2);
    expect(clauses('play some jazz and what time is it')).toHaveLength(2);
  });

  it('keeps a statement of how things are with the request punctuation alone cuts it from', () => {
    expect(clauses("let my sister in, she's at the door")).toEqual(["let my sister in, she's at the door"]);
    expect(clauses("keep the cat in tonight, there's bangers going off")).toHaveLength(1);
    expect(clauses("Biji says it's cold down there, bump her room up")).toHaveLength(1);
    expect(clauses("where's our food, it's been an hour")).toHaveLength(1);
    // Two requests are joined by a word; a wish is a request ("I need a timer"), a question asks.
    expect(clauses("let my sister in and she's at the door")).toHaveLength(2);
    expect(clauses('pause the music, I need a timer for 4 minutes')).toHaveLength(2);
    expect(clauses('turn off the lights, is the back door locked')).toHaveLength(2);
    expect(clauses('turn off the lights, lock the door')).toHaveLength(2);
    const choice = new DefaultRouter(AGENTS).route({ text: 'play some jazz, my guests are here', multiAgent: true });
    expect(choice).toMatchObject({ agentId: 'music' });
    expect(choice.unplaced).toBeUndefined();
  });

  it('tells a request that names only whose thing it asks about', () => {
    expect(["and Dennis's?", "what about Sofia's", "how about James'"].map(leavesOutItsThing)).toEqual([
      true,
      true,
      true,
    ]);
    expect(["what about Sofia's grades", "turn on Sofia's lamp", 'and tomorrow?'].map(leavesOutItsThing)).toEqual([
      false,
      false,
      false,
    ]);
  });

  it('does not split off a bare duration as an intent of its own, nor ask about it', () => {
    const choice = new DefaultRouter(AGENTS).route({ text: 'play some jazz music, 40 minutes', multiAgent: true });
    expect(choice).toMatchObject({ agentId: 'music' });
    expect(choice.additionalAgents).toBeUndefined();
    expect(choice.unplaced).toBeUndefined();
  });
});
