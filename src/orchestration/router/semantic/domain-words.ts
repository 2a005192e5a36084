import { saysWhat, termsOfWords } from '../text-analysis';
import { EVERYDAY_DOMAINS } from './everyday-domains';

/**
 * The domains a card's words name: the terms that say what is asked (saysWhat: not "feeding
 * *times*") of each domain's description that no other domain's description has ("forecast": the
 * weather; "camera": security).
 */
export function namedDomains(words: string): Set<number> {
  const said = whatTerms(words);
  const domains = new Set<number>();
  DOMAIN_WORDS.forEach((own, d) => {
    for (const term of own) if (said.has(term)) domains.add(d);
  });
  return domains;
}

/**
 * The terms of a text's words that say what is asked (saysWhat), and each two terms in a row of
 * which one does: a compound names a thing its words alone do not ("shopping list" is neither the
 * shop nor any list).
 */
function whatTerms(text: string): Set<string> {
  const all = termsOfWords(text);
  const said = all.filter(({ word }) => saysWhat(word)).map((t) => t.term);
  const pairs = all
    .slice(1)
    .flatMap((t, i) => (saysWhat(t.word) || saysWhat(all[i].word) ? [`${all[i].term} ${t.term}`] : []));
  return new Set([...said, ...pairs]);
}

/** For each domain, the terms of its description that say what is asked and no other domain's description has. */
const DOMAIN_WORDS: ReadonlySet<string>[] = (() => {
  const terms = EVERYDAY_DOMAINS.map((d) => whatTerms(d.description));
  return terms.map(
    (own, d) => new Set([...own].filter((term) => terms.every((other, o) => o === d || !other.has(term)))),
  );
})();
