import { allLabelledSets, CATEGORIES, LABELLED_SETS, labelledAgents, utterances } from '../bench/routing/labelled-set';

/** bench/routing's labelled sets are data the benchmark trusts: they must stay well-formed (their accuracy is not tested). */
describe.each(allLabelledSets())('the labelled routing set "%s"', (set) => {
  const cards = labelledAgents(set);
  const agents = new Set(cards.map((a) => a.id));
  const items = utterances(set);

  it('has enough utterances (300 in the main set, 150 in the first two after it, 100 in the others) over at least 8 agents, with unique ids and texts', () => {
    expect(items.length).toBeGreaterThanOrEqual(set === 'main' ? 300 : LABELLED_SETS.includes(set) ? 150 : 100);
    expect(new Set(items.map((u) => `${u.before ?? ''}|${u.text.toLowerCase()}`)).size).toBe(items.length);
    expect(agents.size).toBeGreaterThanOrEqual(8);
    expect(new Set(items.map((u) => u.id)).size).toBe(items.length);
  });

  it('has cards as authors write them: some rich in skills, tags and examples, some a name and one line', () => {
    const rich = cards.filter((c) => c.skills.some((s) => s.tags.length > 0 && (s.examples ?? []).length > 0));
    const thin = cards.filter((c) => c.skills.length === 0);
    expect(rich.length).toBeGreaterThanOrEqual(2);
    expect(thin.length).toBeGreaterThanOrEqual(2);
  });

  it('labels every utterance with known agents, a known category and a split', () => {
    for (const u of items) {
      expect(CATEGORIES).toContain(u.category);
      expect(['dev', 'holdout']).toContain(u.split);
      expect(u.text.trim()).not.toBe('');
      expect(new Set(u.expect).size).toBe(u.expect.length);
      for (const id of u.expect) expect(agents).toContain(id);
      expect(u.expect.length === 0).toBe(u.category === 'out-of-scope');
      if (u.category === 'multi-intent') expect(u.expect.length).toBeGreaterThanOrEqual(1);
      if (u.asks !== undefined) expect([u.category, u.asks]).toEqual(['multi-intent', true]);
    }
  });

  it('gives every conversation a first turn and the agent that should have answered it', () => {
    for (const u of items) {
      expect(u.before === undefined).toBe(u.previous === undefined);
      if (u.previous !== undefined) expect(agents).toContain(u.previous);
      if (u.before !== undefined) expect(u.before.trim()).not.toBe('');
      if (u.category === 'follow-up') expect(u.expect).toEqual([u.previous]);
      if (u.category === 'topic-change') {
        expect(u.previous).toBeDefined();
        expect(u.expect).not.toContain(u.previous);
      }
    }
  });

  it('keeps a 30 % holdout, in every category', () => {
    const holdout = items.filter((u) => u.split === 'holdout').length;
    expect(holdout / items.length).toBeGreaterThanOrEqual(0.28);
    expect(holdout / items.length).toBeLessThanOrEqual(0.33);
    for (const category of CATEGORIES) {
      const of = items.filter((u) => u.category === category);
      const inHoldout = of.filter((u) => u.split === 'holdout').length;
      expect(inHoldout).toBeGreaterThan(0);
      expect(of.length - inHoldout).toBeGreaterThan(0);
      // 25-35 %, to the nearest item (a small set's categories hold 8 or 10).
      expect(inHoldout).toBeGreaterThanOrEqual(Math.floor(of.length * 0.25));
      expect(inHoldout).toBeLessThanOrEqual(Math.ceil(of.length * 0.35));
    }
  });
});
