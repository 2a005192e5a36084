import { chatSpelling, stem, terms } from './text-analysis';

describe('chatSpelling', () => {
  it.each([
    ['tonite', 'tonight'],
    ['U', 'you'],
    ['2moro', 'tomorrow'],
    ['gonna', 'going to'],
    ['tmr', 'tomorrow'],
    ['wats', "what's"],
  ])('reads %s as %s', (word, expected) => {
    expect(chatSpelling(word)).toBe(expected);
  });

  it('leaves other words alone', () => {
    expect(chatSpelling('tonight')).toBeUndefined();
    expect(chatSpelling('what')).toBeUndefined();
  });

  it('gives the card words the word a chat spelling stands for, not a term it stems to', () => {
    // "wats" stems as "water" does; "tmr" is no term at all.
    expect(terms('wats on the calender tmr')).toEqual(['on', 'calender', 'tomorrow'].map((w) => stem(w)));
    expect(terms('wat time is it')).toEqual(['time']);
  });
});
