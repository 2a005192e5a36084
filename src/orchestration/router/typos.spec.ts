import { stem } from './text-analysis';
import { isOneEditApart, TypoCorrector } from './typos';

describe('isOneEditApart', () => {
  it.each([
    ['play', 'paly'],
    ['jazz', 'jazzz'],
    ['weather', 'wether'],
    ['kitchen', 'kitchin'],
    ['light', 'ligth'],
  ])('%s ~ %s', (a, b) => {
    expect(isOneEditApart(a, b)).toBe(true);
    expect(isOneEditApart(b, a)).toBe(true);
  });

  it.each([
    ['play', 'pray!'],
    ['weather', 'whether'],
    ['music', 'magic'],
  ])('%s is not one edit from %s', (a, b) => {
    expect(isOneEditApart(a, b)).toBe(false);
  });
});

describe('TypoCorrector', () => {
  const vocabulary = ['play', 'music', 'jazz', 'weath', 'forecast', 'tomorrow', 'light', 'kitchen', 'fill', 'cart'];
  const shared = new Set(['light']);
  const corrector = new TypoCorrector(vocabulary, (term) => (shared.has(term) ? 0.5 : 1));

  it('judges a stem by the word it was stemmed from', () => {
    expect(corrector.correct(stem('wether'), 'wether')).toBe('weath');
  });

  it.each([
    ['paly', 'play'],
    ['musik', 'music'],
    ['tomorow', 'tomorrow'],
    ['forcast', 'forecast'],
    ['kitchn', 'kitchen'],
  ])('corrects %s to %s', (word, expected) => {
    expect(corrector.correct(word)).toBe(expected);
  });

  it('leaves known, short, numeric and far-off words alone', () => {
    expect(corrector.correct('play')).toBeUndefined();
    expect(corrector.correct('jaz')).toBeUndefined();
    expect(corrector.correct('2024')).toBeUndefined();
    expect(corrector.correct('electricity')).toBeUndefined();
  });

  it('leaves a common English word as it is, however close to a card word ("flight" is not "light")', () => {
    expect(corrector.correct('flight')).toBeUndefined();
    expect(corrector.correct(stem('flights'), 'flights')).toBeUndefined();
    expect(corrector.correct('lihgt')).toBe('light');
  });

  it('corrects four-letter words only by a swap of neighbours, a letter left out or a vowel in a word no dictionary has ("bill" is not "fill")', () => {
    expect(corrector.correct('bill')).toBeUndefined();
    expect(corrector.correct('crat')).toBe('cart');
    expect(new TypoCorrector(['alarm', 'fill'], () => 1).correct('alrm')).toBe('alarm');
    // One other letter is not a typo at this length…
    expect(new TypoCorrector(['fill'], () => 1).correct('fikl')).toBeUndefined();
    // …but for a vowel or "y" in a word no dictionary has: "pley" and "plau" are none; "plan" is,
    // and "tern" (a sea bird) a rarer one.
    const play = new TypoCorrector(['play', 'plin'], () => 1);
    expect(play.correct('pley')).toBe('play');
    expect(play.correct('plau')).toBe('play');
    expect(play.correct('plan')).toBeUndefined();
    expect(new TypoCorrector(['turn'], () => 1).correct('tern')).toBeUndefined();
  });

  it('tries the word as written when its stem is too short or too far ("nwes" is "news")', () => {
    expect(new TypoCorrector(['news'], () => 1).correct('nwe', 'nwes')).toBe('news');
  });

  it('corrects a typo that hides an ending from the stemmer against the card words as written ("shoppin")', () => {
    const written = new TypoCorrector(['shop', 'list', 'play'], () => 1, [
      ['shopping', 'shop'],
      ['playing', 'play'],
    ]);
    expect(stem('shoppin')).toBe('shoppin');
    expect(written.correct('shoppin')).toBe('shop');
    // A word whose ending the stemmer found is judged by its stem: "paying" is "pay", not "playing".
    expect(written.correct(stem('paying'), 'paying')).toBeUndefined();
  });

  it('puts a vowel back in a three-letter word with none, when only one fits ("lst")', () => {
    expect(new TypoCorrector(['list'], () => 1).correct('lst')).toBe('list');
    expect(new TypoCorrector(['list'], () => 1).correct('lit')).toBeUndefined();
    const both = new TypoCorrector(['list', 'last'], () => 1);
    expect(both.correct('lst')).toBeUndefined();
    expect(both.correct('lst', 'lst', (term) => term === 'list')).toBe('list');
  });

  it('puts a letter back in a three-letter word no one spells so, to the one term beside the other words ("lok the car")', () => {
    const car = new TypoCorrector(['lock', 'park'], () => 1);
    expect(car.correct('lok', 'lok', (term) => term === 'lock')).toBe('lock');
    // Only beside a word of the same card, only by a letter put back, and never a word spelt right.
    expect(car.correct('lok')).toBeUndefined();
    expect(car.correct('pak', 'pak', () => false)).toBeUndefined();
    expect(car.correct('pork', 'pork', (term) => term === 'park')).toBeUndefined();
    expect(car.correct('lot', 'lot', (term) => term === 'lock')).toBeUndefined();
    const two = new TypoCorrector(['lock', 'look'], () => 1);
    expect(two.correct('lok', 'lok', () => true)).toBeUndefined();
  });

  it('between terms as rare as each other, takes the one sharing a card with the other words', () => {
    const corrector = new TypoCorrector(['socks', 'rocks'], () => 1);
    expect(corrector.correct('xocks', 'xocks', (term) => term === 'rocks')).toBe('rocks');
    expect(corrector.correct('xocks')).toBe('socks');
  });
});
