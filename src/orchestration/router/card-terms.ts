import type { AgentProfile } from '../../a2a/agent-profile';
import { isEnglishWord } from './common-words';
import { nameOf, withItsParts } from './naming';
import { everydayVocabulary, Spellings } from './spellings';
import { chatSpelling, isStopword, properNames, saysWhat, stem, terms, termsOfWords, words } from './text-analysis';
import { TypoCorrector } from './typos';

/** How much a term counts by where it appears on a card: names and tags say what an agent is for. */
const FIELD_WEIGHTS = { name: 3, tag: 3, skillName: 2.5, description: 1, example: 0.75 } as const;

/** Where a card term appears: on which agent's card (its index), and what it counts there (field weight × idf). */
export interface Posting {
  agent: number;
  weight: number;
}

/**
 * The hosted cards' terms (DefaultRouter's index): each term's postings, weighted by where it
 * appears on a card and by how few cards have it (idf, once, so a decision only adds); the terms
 * each card has in a name, skill name or tag (strong); the names only one card has; and the
 * typos of card terms, corrected in the light of the request's other words. Built once per set
 * of agents.
 */
export class CardTerms {
  private readonly postings = new Map<string, Posting[]>();
  private readonly strong: Set<string>[];
  /** The names only one card has (namesOfOneCard), with that card; what a name's terms count for it (a tag's weight). */
  private readonly ownNames: ReadonlyMap<string, number>;
  private readonly ownNameWeight: number;
  private readonly typos: TypoCorrector;
  /** The words the cards spell each term with ("weath" → "weather"), to write a corrected request out. */
  private readonly spellings = new Spellings();

  constructor(agents: readonly AgentProfile[]) {
    this.strong = agents.map(() => new Set<string>());
    agents.forEach((agent, index) => {
      const weights = new Map<string, number>();
      // Each text on its own: two words of two tags or two examples are no phrase.
      const add = (texts: readonly string[], weight: number, strong: boolean) => {
        for (const text of texts) {
          for (const { term } of this.spellings.note(withItsParts(text))) {
            weights.set(term, Math.max(weights.get(term) ?? 0, weight));
            if (strong) this.strong[index].add(term);
          }
          // Two words one after the other ("the roller *garage door*") say what, together, as a tag does.
          for (const phrase of phrases(words(text), stem)) {
            weights.set(phrase, Math.max(weights.get(phrase) ?? 0, FIELD_WEIGHTS.tag));
            this.strong[index].add(phrase);
          }
        }
      };
      add([nameOf(agent)], FIELD_WEIGHTS.name, true);
      add([agent.description], FIELD_WEIGHTS.description, false);
      for (const skill of agent.skills) {
        add([skill.name], FIELD_WEIGHTS.skillName, true);
        add(skill.tags, FIELD_WEIGHTS.tag, true);
        add([skill.description], FIELD_WEIGHTS.description, false);
        add(skill.examples, FIELD_WEIGHTS.example, false);
      }
      for (const [term, weight] of weights) {
        let list = this.postings.get(term);
        if (!list) this.postings.set(term, (list = []));
        list.push({ agent: index, weight });
      }
    });
    const n = agents.length;
    this.ownNames = namesOfOneCard(agents);
    this.ownNameWeight = FIELD_WEIGHTS.tag * Math.log(1 + n);
    for (const list of this.postings.values()) {
      const idf = Math.log(1 + n / list.length);
      for (const posting of list) posting.weight *= idf;
    }
    this.typos = new TypoCorrector(
      this.postings.keys(),
      (term) => 1 / (this.postings.get(term)?.length ?? 1),
      this.spellings.written,
    );
  }

  /** Whether some card has the term. */
  has(term: string): boolean {
    return this.postings.has(term);
  }

  /** The cards that have the term, with what it counts on each. */
  postingsOf(term: string): readonly Posting[] {
    return this.postings.get(term) ?? [];
  }

  /** Whether the card of the agent at `index` has the term. */
  onCard(index: number, term: string): boolean {
    return this.postings.get(term)?.some((p) => p.agent === index) ?? false;
  }

  /** Whether the card of the agent at `index` has the term in a name, a skill name or a tag. */
  isStrong(index: number, term: string): boolean {
    return this.strong[index].has(term);
  }

  /** The card term a word no card has is a typo of, if any, in the light of the text's other words (TypoCorrector). */
  corrected(term: string, word: string, text: string): string | undefined {
    return this.typos.correct(term, word, (candidate) => this.besideOthers(candidate, word, text));
  }

  /** The card term a word is - spelt right or corrected - if any. */
  known(term: string, word: string, text: string): string | undefined {
    return this.postings.has(term) ? term : this.corrected(term, word, text);
  }

  /** Two words of the text one after the other that a card writes so (phrases), as a card term each. */
  phrasesIn(all: readonly string[], known: ReadonlyMap<string, string>): string[] {
    return phrases(all, (word) => known.get(word)).filter((phrase) => this.postings.has(phrase));
  }

  /** The terms of the names (properNames) the text writes that only one card has (ownNames), with that card. */
  ownNamesIn(text: string): Map<string, Posting> {
    const found = new Map<string, Posting>();
    if (!this.ownNames.size) return found;
    for (const name of properNames(text)) {
      const agent = this.ownNames.get(name);
      if (agent !== undefined) for (const term of terms(name)) found.set(term, { agent, weight: this.ownNameWeight });
    }
    return found;
  }

  /**
   * The request with the words no card has, but that are a typo of one a card has, spelt as the
   * card spells them ("paly some jaz" → "play some jazz"), and chat spellings written out ("wat
   * time … tonite" → "what time … tonight": chatSpelling): what the sentence-embedding model reads.
   */
  spelledOut(text: string): string {
    return text.replace(/[\p{L}\p{N}]+/gu, (word, at: number) => {
      const chat = chatSpelling(word);
      if (chat) return chat;
      const [term] = terms(word);
      if (term === undefined || this.postings.has(term)) return word;
      // In lower case, as the ranking corrects it: "Mount" is the common word "mount", not a typo of a card's "count".
      const lower = word.toLowerCase();
      const corrected = this.corrected(term, lower, text);
      if (corrected) return this.spellings.spelt(word, corrected, everydayVocabulary().spellings);
      // Not a card's word: perhaps one of how people talk about the home ("start the *hoovr*": the
      // robot vacuum's card says "vacuum", everyday speech "hoover"), for the model's eyes only.
      // Not a name ("Stevie Wonder": capitalised after the first word), nor a rarer word spelt
      // right ("scones" is not "scenes"): no card's words confirm what it would become.
      const everyday = everydayVocabulary();
      if (everyday.spellings.has(term) || (at > 0 && word !== lower) || isEnglishWord(lower)) return word;
      // A word of three letters ("dor") becomes the one everyday word a letter put back makes, if
      // only one: no card's words to confirm it here, and no card's term it would count for.
      const usual = everyday.typos.correct(term, lower, () => true);
      return usual ? everyday.spellings.spelt(word, usual) : word;
    });
  }

  /** Whether a card with `candidate` has another word of the text (spelt right, or corrected). */
  private besideOthers(candidate: string, word: string, text: string): boolean {
    const agents = new Set(this.postings.get(candidate)?.map((p) => p.agent));
    return termsOfWords(text).some((other) => {
      if (other.word === word) return false;
      const known = this.postings.has(other.term) ? other.term : this.typos.correct(other.term, other.word);
      return known !== undefined && known !== candidate && this.postings.get(known)!.some((p) => agents.has(p.agent));
    });
  }
}

/** Parts of a home: two words ending in one say where ("in the *living room*"), not what. */
const ROOMS = new Set(
  'room rooms bedroom bathroom kitchen lounge hall hallway landing garden yard office study nursery basement loft attic house flat home'.split(
    ' ',
  ),
);

/**
 * Two words that say what, one after the other ("garage door", "pool lights"), as one term of
 * both words' terms (`term`: the card term a word is, if any). Not a place ("living room").
 */
function phrases(all: readonly string[], term: (word: string) => string | undefined): string[] {
  const found: string[] = [];
  for (let i = 1; i < all.length; i++) {
    const [a, b] = [all[i - 1], all[i]];
    if (isStopword(a) || isStopword(b) || !saysWhat(a) || !saysWhat(b) || ROOMS.has(b)) continue;
    const [first, second] = [term(a), term(b)];
    if (first && second) found.push(`${first} ${second}`);
  }
  return found;
}

/**
 * The names (properNames) in the cards' lines that only one card has, with that card: what a thin
 * card's one line is about ("Halo Collar on *Floss*, the border collie"), a show it plays ("*Fair
 * Go*"), said as a name, says which card as a tag would, though the line counts as a description.
 */
function namesOfOneCard(agents: readonly AgentProfile[]): Map<string, number> {
  const cards = new Map<string, number>();
  agents.forEach((agent, index) => {
    const lines = [agent.description, ...agent.skills.flatMap((s) => [s.description, ...s.examples])];
    for (const name of new Set(lines.flatMap((line) => properNames(line)))) {
      cards.set(name, cards.has(name) ? -1 : index);
    }
  });
  return new Map([...cards].filter(([, index]) => index >= 0));
}
