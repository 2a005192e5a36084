import { isCommonWord } from './common-words';

/** Shortest word a typo is looked for in. */
const MIN_TYPO_LENGTH = 4;
/**
 * Shortest word corrected by any edit; shorter ones only by a swap of neighbours ("paly") or a
 * letter left out ("alrm"), since one other letter makes another word too often ("bill" → "fill").
 */
const MIN_ANY_EDIT_LENGTH = 5;

/** Equal, or one edit apart when both are long enough for a typo to be one (see isOneEditApart). */
export function sameWord(a: string, b: string): boolean {
  if (a === b) return true;
  if (a.length < MIN_TYPO_LENGTH || b.length < MIN_TYPO_LENGTH) return false;
  return isOneEditApart(a, b);
}

/** One character inserted, deleted or replaced, or two neighbours swapped ("paly"/"play"). */
export function isOneEditApart(a: string, b: string): boolean {
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  let j = 0;
  let edits = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      i++;
      j++;
      continue;
    }
    if (++edits > 1) return false;
    if (a.length > b.length) i++;
    else if (b.length > a.length) j++;
    else if (a[i + 1] === b[j] && a[i] === b[j + 1]) {
      i += 2;
      j += 2;
    } else {
      i++;
      j++;
    }
  }
  return edits + (a.length - i) + (b.length - j) <= 1;
}

/**
 * Corrects words against a fixed vocabulary (the terms on the hosted agents' cards), SymSpell
 * style: every vocabulary term is indexed under itself and each of its one-character deletions,
 * so a word's candidates are found by looking up the word and its own deletions - a few map
 * lookups, whatever the vocabulary's size - and then confirmed one edit apart. Among several,
 * the one most agents share loses to rarer ones (it says less); ties go to the first indexed.
 */
export class TypoCorrector {
  private readonly index = new Map<string, string[]>();

  constructor(
    vocabulary: Iterable<string>,
    private readonly rarity: (term: string) => number,
  ) {
    for (const term of vocabulary) {
      if (term.length < MIN_TYPO_LENGTH || /\d/.test(term)) continue;
      for (const key of [term, ...deletions(term)]) {
        const list = this.index.get(key);
        if (!list) this.index.set(key, [term]);
        else if (!list.includes(term)) list.push(term);
      }
    }
  }

  /**
   * The vocabulary term `word` is most likely a typo of, if any (undefined for a known or too
   * short word, or one that is a common English word as written). `spelt`: the word as written,
   * when `word` is its stem.
   */
  correct(word: string, spelt = word): string | undefined {
    if (spelt.length < MIN_TYPO_LENGTH || /\d/.test(spelt) || isCommonWord(spelt)) return undefined;
    let best: string | undefined;
    // The stem, and the word as written ("nwes" is a swap of "news", its stem "nwe" is not).
    for (const source of new Set([word, spelt])) {
      if (source.length < MIN_TYPO_LENGTH) continue;
      for (const key of [source, ...deletions(source)]) {
        for (const term of this.index.get(key) ?? []) {
          if (term === source || !isOneEditApart(source, term)) continue;
          if (spelt.length < MIN_ANY_EDIT_LENGTH && !isSwap(source, term) && term.length !== source.length + 1)
            continue;
          if (!best || this.rarity(term) > this.rarity(best)) best = term;
        }
      }
    }
    return best;
  }
}

/** The same letters, two neighbours swapped. */
function isSwap(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  const at = [...a].findIndex((c, i) => c !== b[i]);
  return at >= 0 && a[at] === b[at + 1] && a[at + 1] === b[at] && a.slice(at + 2) === b.slice(at + 2);
}

function deletions(word: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < word.length; i++) out.push(word.slice(0, i) + word.slice(i + 1));
  return out;
}
