import type { Routing } from '../routing';
import { againstDomain, combine, oneWordAmongOthers, servedDomainTakes, unservedDomainTakes } from './evidence';

/** What the card words said of a text. */
const byWords = (agentId: string, confidence: number, evidenceTerms: number, otherTerms: number): Routing => ({
  agentId,
  reasoning: 'by words',
  confidence,
  candidates: agentId ? [agentId] : [],
  evidenceTerms,
  otherTerms,
});
const meaning = (agentId: string | undefined, confidence: number, offCard = false) => ({
  agentId,
  confidence,
  offCard,
});

describe('words and meaning together (combine)', () => {
  it('adds up their confidences when they point to the same agent', () => {
    expect(combine('play some jazz', byWords('music', 0.6, 2, 0), meaning('music', 0.5), 0.7)).toEqual({
      agentId: 'music',
      confidence: 0.8,
    });
  });

  it('lets card words that decide on their own decide against a surer meaning, as they do alone', () => {
    // "play the match-day *playlist*": the player's tag and its verb, against a meaning of football.
    const playlist = byWords('player', 0.9, 2, 1);
    expect(combine('play the match-day playlist', playlist, meaning('scores', 0.95), 0.7)).toEqual({
      agentId: 'player',
      confidence: 0.9,
    });
    // Not a fragment of one word ("play jazz and *blues*"), nor words under the threshold.
    expect(combine('blues', byWords('shop', 0.9, 1, 0), meaning('music', 0.95), 0.7).agentId).toBe('music');
    expect(combine('play the match', byWords('player', 0.6, 2, 1), meaning('scores', 0.95), 0.7).agentId).toBe(
      'scores',
    );
  });

  it('counts one card word among others for less, and lets the meaning decide against it', () => {
    const sky = combine('why is the sky blue', byWords('shop', 0.9, 1, 2), meaning('wiki', 0.8), 0.7);
    expect(sky.agentId).toBe('wiki');
    const weak = combine('why is the sky blue', byWords('shop', 0.9, 1, 2), meaning('wiki', 0.6), 0.7);
    expect(weak.agentId).toBe('shop');
    expect(weak.confidence).toBeCloseTo(0.675);
  });

  it('takes off the meaning what card words pointing elsewhere say against it', () => {
    // "what's the *air* pressure in my tyres": an air-quality tag (one word among others, 0.94 × 0.75)
    // against a thermostat's card by meaning, just over the threshold: a question, not the thermostat.
    const tyres = combine(
      'what is the air pressure in my tyres',
      byWords('air', 0.94, 1, 2),
      meaning('heat', 0.72),
      0.7,
    );
    expect(tyres.agentId).toBe('heat');
    expect(tyres.confidence).toBeCloseTo(0.72 * (1 - 0.5 * (0.94 * 0.75 - 0.5)));
    expect(tyres.confidence).toBeLessThan(0.7);
    // Weak words elsewhere (≤ 0.5) take nothing off; nor do words that point nowhere.
    expect(combine('put something relaxing on', byWords('home', 0.45, 0, 1), meaning('music', 0.8), 0.7)).toEqual({
      agentId: 'music',
      confidence: 0.8,
    });
    expect(combine('I am freezing', byWords('', 0, 0, 1), meaning('home', 0.8), 0.7)).toEqual({
      agentId: 'home',
      confidence: 0.8,
    });
  });
});

describe('a domain no agent serves against the closest card (unservedDomainTakes)', () => {
  const near = (confidence: number, similarity = 0.8) => ({ confidence, similarity });

  it('counts the card words for the closest card when they point to it', () => {
    // "ad coffee to my *trolly*": a grocery card by its tag and by meaning (0.68), though the
    // nearest everyday request is "make me a coffee" (an appliance's, served by no agent: 0.83).
    const trolley = byWords('groceries', 0.8, 1, 1);
    expect(unservedDomainTakes(near(0.83), { agentId: 'groceries', confidence: 0.68 }, trolley, 0.7)).toBe(false);
    // Meaning alone, or words pointing to another card, do not hold the domain off.
    expect(unservedDomainTakes(near(0.83), { agentId: 'groceries', confidence: 0.68 }, byWords('', 0, 0, 1), 0.7)).toBe(
      true,
    );
    const home = byWords('home', 0.6, 1, 1);
    expect(unservedDomainTakes(near(0.83), { agentId: 'groceries', confidence: 0.68 }, home, 0.7)).toBe(true);
    // Nor words for a card the request does not stand out for at all.
    expect(unservedDomainTakes(near(0.83), { agentId: 'groceries', confidence: 0 }, trolley, 0.7)).toBe(true);
  });

  it("counts the domain's lead only as far as its nearest request is near, against words and a clear card", () => {
    // "*vacuum* the lounge": the robot's card (3.56 σ against 1.58 σ: 1.29) and one of its words
    // (0.62, one among others: 0.46) against "make it cosy in the lounge" (lighting: 0.66, lead 0.08: 1.00).
    const vacuum = byWords('robot', 0.62, 1, 1);
    const robot = { agentId: 'robot', confidence: 1.29 };
    expect(unservedDomainTakes(near(1.0, 0.66), robot, vacuum, 0.7)).toBe(false);
    // As near as a request asking the same (NEAR_REQUEST), the lead counts in full.
    expect(unservedDomainTakes(near(1.0, 0.7), robot, vacuum, 0.7)).toBe(true);
    // Card words that are not one among others ("set the *geyser* to 60 degrees": a tag and a command
    // the card takes, 0.66) and a card as clear (5.87 σ against 2.81 σ: 1.72) hold off a domain short
    // of asking the same ("knock the temperature down a couple of degrees": climate, 0.67, lead 0.21: 1.9).
    const geyser = { ...byWords('geyser', 0.66, 1, 1), commandsAgent: true };
    expect(unservedDomainTakes(near(1.9, 0.67), { agentId: 'geyser', confidence: 1.72 }, geyser, 0.7)).toBe(false);
    expect(unservedDomainTakes(near(1.9, 0.7), { agentId: 'geyser', confidence: 1.72 }, geyser, 0.7)).toBe(true);
    // "how do you say *recipe* in French": "how do you say good morning in French" is 0.72 near (lead 0.11: 1.22).
    const recipe = byWords('recipes', 0.62, 1, 2);
    expect(unservedDomainTakes(near(1.22, 0.72), { agentId: 'recipes', confidence: 1.25 }, recipe, 0.7)).toBe(true);
    // A card that is not clear leaves it to the lead: "*book* a table for two at 8", a shop's card
    // 2.10 σ against 2.02 σ (0.53), "get me a table for four tomorrow" 0.60 near (lead 0.06: 0.90).
    const book = byWords('shop', 0.45, 1, 2);
    expect(unservedDomainTakes(near(0.9, 0.6), { agentId: 'shop', confidence: 0.53 }, book, 0.7)).toBe(true);
    // Nor does nearness count against the meaning alone: leads against leads.
    const alone = { agentId: 'robot', confidence: 0.9 };
    expect(unservedDomainTakes(near(1.0, 0.66), alone, byWords('', 0, 0, 1), 0.7)).toBe(true);
    expect(unservedDomainTakes(near(1.0, 0.66), alone, vacuum, 0.7)).toBe(false);
  });
});

describe('a domain another agent serves against the closest card (servedDomainTakes)', () => {
  it('takes the request by the leads alone when only the meaning speaks for the card', () => {
    // "I'm freezing": a weather card 1.83 σ (0.75), the heating's domain served by the smart home (1.17).
    expect(
      servedDomainTakes("I'm freezing", 1.17, { agentId: 'weather', confidence: 0.75 }, byWords('', 0, 0, 1)),
    ).toBe(true);
    expect(servedDomainTakes("I'm freezing", 0.6, { agentId: 'weather', confidence: 0.75 }, byWords('', 0, 0, 1))).toBe(
      false,
    );
  });

  it('must be surer, as a confidence, than the card and the card words pointing to it together', () => {
    // "make me a *coffee*": two of a coffee machine's card words (0.69) and its card (4.18 σ against
    // 2.41 σ: 1.21), though the nearest everyday request is word for word the appliances' (lead 0.47: 3.63).
    const coffee = byWords('coffee', 0.69, 2, 0);
    expect(servedDomainTakes('make me a coffee', 3.63, { agentId: 'coffee', confidence: 1.21 }, coffee)).toBe(false);
    // Card words for another card than the closest do not count for it.
    const other = byWords('kettle', 0.69, 2, 0);
    expect(servedDomainTakes('make me a coffee', 3.63, { agentId: 'coffee', confidence: 1.21 }, other)).toBe(true);
    // Nor words for a card the request does not stand out for.
    expect(servedDomainTakes('make me a coffee', 3.63, { agentId: 'coffee', confidence: 0 }, coffee)).toBe(true);
  });

  it('still takes it from card words that are weak evidence: part of a tag, one word among others, a fragment', () => {
    // "set the *heating* to 20": a car's "seat heating" and its card (3.11 σ against the thermostat's 2.78 σ: 0.63).
    const seatHeating = { ...byWords('car', 0.85, 1, 1), partOfTags: true };
    expect(
      servedDomainTakes(
        'set the heating to 20',
        0.5 + (0.2 * 0.18) / 0.03,
        { agentId: 'car', confidence: 0.63 },
        seatHeating,
      ),
    ).toBe(true);
    // Even a card far ahead: which card is the domain's to say.
    expect(servedDomainTakes('set the heating to 20', 1.7, { agentId: 'car', confidence: 1.5 }, seatHeating)).toBe(
      true,
    );
    // "play jazz and *blues*": the shop's "blue" and its card (1.52 σ, 0.86), the lighting's domain (lead 0.10: 1.17).
    expect(servedDomainTakes('blues', 1.17, { agentId: 'shop', confidence: 0.86 }, byWords('shop', 0.76, 1, 0))).toBe(
      true,
    );
  });
});

describe('one card word among others (oneWordAmongOthers)', () => {
  it('is weak evidence, unless it names the agent or the request is a command its card takes', () => {
    expect(oneWordAmongOthers(byWords('forecast', 0.8, 1, 1))).toBe(true);
    expect(oneWordAmongOthers({ ...byWords('calendar', 0.8, 1, 1), namesAgent: true })).toBe(false);
    // "turn off the tv *plug*": "turn" and "off" are the card's words too.
    expect(oneWordAmongOthers({ ...byWords('plugs', 0.8, 1, 1), commandsAgent: true })).toBe(false);
  });

  it('takes card words saying only which one, beside words saying what the card lacks, as no more', () => {
    // "when is the *next* Arsenal match": a player's "next" tag (a strong word, 0.73), nothing of what is asked.
    expect(oneWordAmongOthers(byWords('player', 0.73, 0, 2))).toBe(true);
    // "next" alone is all the request says.
    expect(oneWordAmongOthers(byWords('player', 0.73, 0, 0))).toBe(false);
  });

  it('takes card words that are only part of tags of several words as no more ("set the *heating* to 20")', () => {
    // A car's "seat heating" tag: the request says nothing the card lacks, but the tag is another thing.
    expect(oneWordAmongOthers({ ...byWords('car', 0.8, 1, 0), partOfTags: true })).toBe(true);
    expect(oneWordAmongOthers({ ...byWords('car', 0.8, 1, 0), partOfTags: true, namesAgent: true })).toBe(false);
  });
});

describe('the closest card by meaning alone against a domain it is not placed in (againstDomain)', () => {
  it('must clear the threshold by 0.15 when the domain alone reaches it, by less as the domain is less clear', () => {
    // "how many calories are in an avocado": a grocer's card at 0.79, nearest a calculation (0.7).
    expect(againstDomain(0.79, 0.7, 0.7)).toBeCloseTo(0.64);
    expect(againstDomain(0.79, 0.9, 0.7)).toBeCloseTo(0.64);
    expect(againstDomain(0.79, 0.6, 0.7)).toBeCloseTo(0.715);
    // A domain whose nearest request is no nearer than one of another outcome says nothing against the card.
    expect(againstDomain(0.79, 0.5, 0.7)).toBe(0.79);
    expect(againstDomain(0.1, 0.9, 0.7)).toBe(0);
  });
});
