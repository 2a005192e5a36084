import { CATEGORIES, labelledAgents, utterances } from '../bench/routing/labelled-set';

/** bench/routing's labelled set is data the benchmark trusts: it must stay well-formed. */
describe('the labelled routing set', () => {
  const agents = new Set(labelledAgents().map((a) => a.id));
  const items = utterances();

  it('has at least 250 utterances over at least 8 agents, with unique ids', () => {
    expect(items.length).toBeGreaterThanOrEqual(250);
    expect(agents.size).toBeGreaterThanOrEqual(8);
    expect(new Set(items.map((u) => u.id)).size).toBe(items.length);
  });

  it('labels every utterance with known agents, a known category and a split', () => {
    for (const u of items) {
      expect(CATEGORIES).toContain(u.category);
      expect(['dev', 'holdout']).toContain(u.split);
      expect(u.text.trim()).not.toBe('');
      for (const id of u.expect) expect(agents).toContain(id);
      if (u.previous !== undefined) expect(agents).toContain(u.previous);
      expect(u.expect.length === 0).toBe(u.category === 'out-of-scope');
      if (u.category === 'follow-up' || u.category === 'topic-change') expect(u.previous).toBeDefined();
    }
  });

  it('keeps a 30 % holdout in every category', () => {
    for (const category of CATEGORIES) {
      const of = items.filter((u) => u.category === category);
      const holdout = of.filter((u) => u.split === 'holdout').length;
      expect(holdout / of.length).toBeGreaterThanOrEqual(0.25);
      expect(holdout / of.length).toBeLessThanOrEqual(0.35);
    }
  });
});
