import { EVERYDAY_DOMAINS } from './semantic/everyday-domains';
import { termsOfWords } from './text-analysis';
import { isOneEditApart, TypoCorrector } from './typos';

/** Of the forms a term is written in, the one one edit from the typo if any ("paly" → "play", not "plays"). */
export function spelt(typo: string, forms: readonly string[]): string {
  return forms.find((form) => isOneEditApart(typo.toLowerCase(), form)) ?? forms[0];
}

/**
 * The words people use about the home (EVERYDAY_DOMAINS: "hoover", "telly", "radiator"), and a
 * TypoCorrector over them - rarer terms (in fewer domains) first. Fixed, so built once per process
 * (about 1,000 words, a few ms), not per agent set. Only `spelledOut` uses it: a word no card has
 * is no card's evidence, however well it is spelt.
 */
let everydayWords: { typos: TypoCorrector; spelling: Map<string, string[]> } | undefined;
export function everydayVocabulary(): { typos: TypoCorrector; spelling: Map<string, string[]> } {
  if (everydayWords) return everydayWords;
  const spelling = new Map<string, string[]>();
  const domains = new Map<string, Set<string>>();
  const written = new Map<string, string>();
  for (const domain of EVERYDAY_DOMAINS) {
    for (const text of [domain.description, ...domain.requests]) {
      for (const { word, term } of termsOfWords(text)) {
        const forms = spelling.get(term);
        if (!forms) spelling.set(term, [word]);
        else if (!forms.includes(word)) forms.push(word);
        written.set(word, term);
        const seen = domains.get(term);
        if (!seen) domains.set(term, new Set([domain.id]));
        else seen.add(domain.id);
      }
    }
  }
  const typos = new TypoCorrector(spelling.keys(), (term) => 1 / (domains.get(term)?.size ?? 1), written);
  return (everydayWords = { typos, spelling });
}
