import type { AgentProfile } from '../../a2a/agent-profile';
import { nameOf } from './naming';
import { terms, words } from './text-analysis';

/**
 * The words cards have only as part of a tag of several words ("seat heating", "charge level" on
 * a car's card), not as a tag, a name or a skill's name of their own: a request with such a word
 * alone ("set the *heating* to 20") may ask for another thing than the tag's (the house's heating,
 * not the car's seats), where the tag whole ("turn on the *seat heating*") is the card's.
 */
export class TagParts {
  /** For each card, the terms it has only as words of its long tags. */
  private readonly partsOnly: Set<string>[];
  /** For each card, its tags of several words, as their terms. */
  private readonly longTags: string[][][];

  constructor(agents: readonly AgentProfile[]) {
    this.longTags = agents.map((agent) =>
      agent.skills.flatMap((skill) => skill.tags.filter((tag) => words(tag).length > 1).map((tag) => terms(tag))),
    );
    this.partsOnly = agents.map((agent, index) => {
      const whole = new Set(terms(nameOf(agent)));
      for (const skill of agent.skills) {
        for (const t of terms(skill.name)) whole.add(t);
        for (const tag of skill.tags) if (words(tag).length === 1) for (const t of terms(tag)) whole.add(t);
      }
      return new Set(this.longTags[index].flat().filter((t) => !whole.has(t)));
    });
  }

  /**
   * Whether the card at `index` has the request's strong words (`strong`: those of its name, tags
   * or skill names the request has) only as parts of its long tags, none of which the request has
   * whole (`said`: the request's terms).
   */
  onlyParts(index: number, strong: readonly string[], said: { has(term: string): boolean }): boolean {
    return (
      strong.length > 0 &&
      strong.every((t) => this.partsOnly[index].has(t)) &&
      !this.longTags[index].some((tag) => tag.every((t) => said.has(t)))
    );
  }
}
