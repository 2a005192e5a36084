import { namedDomains } from './domain-words';
import { EVERYDAY_DOMAINS } from './everyday-domains';

const named = (words: string) => [...namedDomains(words)].map((d) => EVERYDAY_DOMAINS[d].id).sort();

describe("the domains a card's words name (namedDomains)", () => {
  it("names a domain by a word of its description that no other domain's has", () => {
    expect(named('Met.no: Forecast for home.')).toEqual(['weather']);
    expect(named('Frigate: NVR events and camera snapshots.')).toEqual(['security']);
    expect(named('Know where your vehicle is, always.')).toEqual(['car']);
  });

  it('names a domain by two words in a row of its description that no other has, though neither word alone does', () => {
    // "shopping" is the shop's too, "list" a generic word; "shopping list" is only the lists'.
    expect(named("Shopping List. The family's shared shopping list.")).toEqual(['reminders-and-lists']);
    expect(named('Shopping: our account at the online store.')).not.toContain('reminders-and-lists');
  });

  it('names nothing by words several domains share or words that do not say what is asked', () => {
    // "car" is also the travel's (hire cars) and the energy's (car charging); "lock" the door locks'.
    expect(named('Your car, lock and unlock.')).not.toContain('car');
    // "how much … is left" says how much, not what.
    expect(named('How much water is left in the tanks')).toEqual([]);
  });
});
