import { agentCard as card } from './agent-card.fixture';
import { CardTerms } from './card-terms';

describe("the cards' terms (CardTerms)", () => {
  it('reads two words one after the other in a line or a tag as a phrase, a strong term of that card', () => {
    const cards = new CardTerms([card('pool', 'AstralPool', 'Pool controller', ['pool lights', 'heat pump'])]);
    expect(cards.has('pool light')).toBe(true);
    expect(cards.isStrong(0, 'pool light')).toBe(true);
    expect(cards.has('heat pump')).toBe(true);
  });

  it('makes no phrase of the last word of one tag and the first of the next, nor across two examples', () => {
    const cards = new CardTerms([
      card(
        'air',
        'Actron Air',
        'Ducted air conditioning',
        ['cooling', 'heating'],
        ['cool the lounge', "heat Mia's room"],
      ),
    ]);
    expect(cards.has('cool')).toBe(true);
    expect(cards.has('cool heat')).toBe(false);
    expect(cards.has('lounge heat')).toBe(false);
  });
});
