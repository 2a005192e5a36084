import { EVERYDAY_DOMAINS } from './semantic/everyday-domains';
import { termsOfWords } from './text-analysis';
import { isOneEditApart, TypoCorrector } from './typos';

/**
 * The words some texts write each term with ("weath" → "weather") and each word's term: what a
 * corrected word is written out as, and what TypoCorrector matches words as written against.
 */
export class Spellings {
  private readonly forms = new Map<string, string[]>();
  /** Each word as written, with its term. */
  readonly written = new Map<string, string>();

  /** Notes how `text` writes its terms; its words with their terms. */
  note(text: string): { word: string; term: string }[] {
    const found = termsOfWords(text);
    for (const { word, term } of found) {
      const forms = this.forms.get(term);
      if (!forms) this.forms.set(term, [word]);
      else if (!forms.includes(word)) forms.push(word);
      this.written.set(word, term);
    }
    return found;
  }

  has(term: string): boolean {
    return this.forms.has(term);
  }

  /**
   * `term` as the texts write it, in the form one edit from `typo` if any ("paly" → "play", not
   * "plays") - or, failing that, as `others` write it one edit from it ("remnd" → "remind", where
   * the cards say only "reminders": what the word was meant to be, for the model and the framing).
   */
  spelt(typo: string, term: string, others?: Spellings): string {
    const near = (forms: string[] | undefined) => forms?.find((form) => isOneEditApart(typo.toLowerCase(), form));
    const forms = this.forms.get(term) ?? [term];
    return near(forms) ?? near(others?.forms.get(term)) ?? forms[0];
  }
}

/**
 * The words people use about the home (EVERYDAY_DOMAINS: "hoover", "telly", "radiator"), and a
 * TypoCorrector over them - rarer terms (in fewer domains) first. Fixed, so built once per process
 * (about 1,000 words, a few ms), not per agent set. Only `spelledOut` uses it: a word no card has
 * is no card's evidence, however well it is spelt.
 */
let everydayWords: { typos: TypoCorrector; spellings: Spellings } | undefined;
export function everydayVocabulary(): { typos: TypoCorrector; spellings: Spellings } {
  if (everydayWords) return everydayWords;
  const spellings = new Spellings();
  const domains = new Map<string, Set<string>>();
  for (const domain of EVERYDAY_DOMAINS) {
    for (const text of [domain.description, ...domain.requests]) {
      for (const { term } of spellings.note(text)) domains.set(term, (domains.get(term) ?? new Set()).add(domain.id));
    }
  }
  const typos = new TypoCorrector([...domains.keys()], (term) => 1 / (domains.get(term)?.size ?? 1), spellings.written);
  return (everydayWords = { typos, spellings });
}
