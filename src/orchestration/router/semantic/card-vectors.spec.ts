import { agentCard as card } from '../agent-card.fixture';
import { CardVectors } from './card-vectors';
import { CARD_BACKGROUND } from './everyday-domains';
import type { SentenceEncoder } from './sentence-encoder';

/** A stand-in for the model: a unit vector per text from its characters, and a record of what was embedded. */
function fakeEncoder() {
  const batches: string[][] = [];
  const vector = (text: string) => {
    const v = new Float32Array(8);
    for (let i = 0; i < text.length; i++) v[text.charCodeAt(i) % 8] += 1;
    const norm = Math.hypot(...v) || 1;
    return v.map((x) => x / norm);
  };
  const encoder = {
    embed: (texts: string[]) => {
      batches.push(texts);
      return Promise.resolve(texts.map(vector));
    },
  } as unknown as SentenceEncoder;
  return { encoder, batches, vector };
}

describe('CardVectors (the cards as vectors, embedded once per card version)', () => {
  const weather = card('weather', 'Weather', 'Forecasts and current conditions', ['rain'], ['will it rain']);
  const music = card('music', 'Music', 'Plays songs', ['song']);

  it("embeds each card's anchors once, in one batch after the everyday requests", async () => {
    const { encoder, batches } = fakeEncoder();
    const cards = new CardVectors(encoder);
    await cards.prepare([weather, music], 1);
    expect(batches).toHaveLength(2);
    expect(batches[0]).toEqual([...CARD_BACKGROUND]);
    expect(batches[1]).toEqual([
      // The fixture's one skill repeats the card's name and line: each anchor once.
      'Weather: Forecasts and current conditions',
      'rain',
      'will it rain',
      'Music: Plays songs',
      'song',
    ]);
  });

  it('does no work for the same agent set, and re-embeds only a changed card for a new one', async () => {
    const { encoder, batches } = fakeEncoder();
    const cards = new CardVectors(encoder);
    await cards.prepare([weather, music], 1);
    await cards.prepare([weather, music], 1);
    await cards.prepare([weather, music], 2);
    expect(batches).toHaveLength(2);

    const louder = card('music', 'Music', 'Plays songs and radio', ['song']);
    await cards.prepare([weather, louder], 3);
    expect(batches).toHaveLength(3);
    expect(batches[2]).toEqual(['Music: Plays songs and radio', 'song']);
  });

  it('ranks by how far a request stands out for each card, and forgets removed agents', async () => {
    const { encoder, vector } = fakeEncoder();
    const cards = new CardVectors(encoder);
    await cards.prepare([weather, music], 1);
    const ranked = cards.rank(vector('will it rain'), [weather, music]);
    expect(ranked[0]).toMatchObject({ id: 'weather' });
    expect(ranked[0].similarity).toBeCloseTo(1, 5);
    expect(ranked[0].standing).toBeGreaterThan(ranked[1].standing);

    await cards.prepare([music], 2);
    expect(cards.rank(vector('will it rain'), [weather, music]).map((r) => r.id)).toEqual(['music']);
  });

  it("tells whether a set changed the cards, and a card's closest line to a vector", async () => {
    const { encoder, vector } = fakeEncoder();
    const cards = new CardVectors(encoder);
    expect(await cards.prepare([weather, music], 1)).toBe(true);
    expect(await cards.prepare([weather, music], 2)).toBe(false);
    expect(await cards.prepare([weather], 3)).toBe(true);
    expect(cards.similarity(vector('will it rain'), 'weather')).toBeCloseTo(1, 5);
    expect(cards.similarity(vector('will it rain'), 'music')).toBe(-1);
  });

  it('reads a name two cards use as "someone", on their lines and on requests; a name one card has stays', async () => {
    const { encoder, batches } = fakeEncoder();
    const cards = new CardVectors(encoder);
    const locator = card('locator', 'Family locator', 'Where Sofia and Jaylen are', ['location'], ["where's Sofia"]);
    const plugs = card('plugs', 'Smart plugs', "Sofia's string lights and the Mochi cam", ['plug']);
    await cards.prepare([locator, plugs], 1);
    expect(batches[1]).toEqual([
      'Family locator: Where someone and Jaylen are',
      'location',
      "where's someone",
      "Smart plugs: someone's string lights and the Mochi cam",
      'plug',
    ]);
    expect(cards.masked("is it cold in SOFIA's room, ask sofia")).toBe("is it cold in someone's room, ask someone");
    // "Sofia" is a name no longer shared once the plugs are gone: the locator's lines are embedded again.
    await cards.prepare([locator], 2);
    expect(batches[2]).toEqual(['Family locator: Where Sofia and Jaylen are', 'location', "where's Sofia"]);
    expect(cards.masked("where's Sofia")).toBe("where's Sofia");
  });
});
