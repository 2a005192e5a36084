import { isCommonWord, isEnglishWord } from './common-words';

/** Shortest word a typo is looked for in. */
const MIN_TYPO_LENGTH = 4;
/**
 * Shortest word corrected by any edit; shorter ones only by a swap of neighbours ("paly"), a
 * letter left out ("alrm") or a vowel misheard in a word no dictionary has ("pley": vowelMisheard),
 * since one other letter makes another word too often ("bill" → "fill").
 */
const MIN_ANY_EDIT_LENGTH = 5;
/**
 * A word of three letters and no vowel is no English word as written: a vowel left out ("lst",
 * "txt"). Such a word is corrected by a letter put back, to a term of four.
 */
const VOWELLESS = /^[b-df-hj-np-tv-xz]{3}$/;
/**
 * Nor is a word of three letters that is no common English word ("lok"): a letter left out of a
 * word of four, as likely as not. Such a word is corrected by a letter put back, to the one term
 * that shares a card with the request's other words ("*lok* the car": the car's "lock"), if one does.
 */
const THREE_LETTERS = /^[a-z]{3}$/;

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
 *
 * The cards' words as written (`written`: word → term) are indexed too, for a typo that hides
 * an ending from the stemmer: "shoppin" is one letter from the card's "shopping", but its stem
 * is itself, four letters from "shop". They are tried only for such a word (its stem is the word
 * itself): a word whose ending the stemmer found is judged by its stem ("paying" is "pay", not
 * the card's "playing").
 */
export class TypoCorrector {
  private readonly index = new Map<string, { form: string; term: string }[]>();
  private readonly writtenIndex = new Map<string, { form: string; term: string }[]>();

  constructor(
    vocabulary: Iterable<string>,
    private readonly rarity: (term: string) => number,
    written: Iterable<readonly [string, string]> = [],
  ) {
    for (const term of vocabulary) indexUnder(this.index, term, term);
    for (const [form, term] of written) if (form !== term) indexUnder(this.writtenIndex, form, term);
  }

  /**
   * The vocabulary term `word` is most likely a typo of, if any (undefined for a known or too
   * short word, or one that is a common English word as written). `spelt`: the word as written,
   * when `word` is its stem. `besideOthers`: whether a term shares a card with the request's
   * other words - between terms as rare as each other, the one that does wins ("lst" in "the
   * shoppin lst" is the grocery list's "list", not a camera's "last night").
   */
  correct(word: string, spelt = word, besideOthers?: (term: string) => boolean): string | undefined {
    if (/\d/.test(spelt) || isCommonWord(spelt)) return undefined;
    // A word of three letters (no common word, see above) is corrected only by a letter put back.
    const letterLeftOut = THREE_LETTERS.test(spelt);
    if (spelt.length < MIN_TYPO_LENGTH && !letterLeftOut) return undefined;
    const found: string[] = [];
    const consider = (source: string, index: Map<string, { form: string; term: string }[]>) => {
      if (source.length < MIN_TYPO_LENGTH && !letterLeftOut) return;
      for (const key of [source, ...deletions(source)]) {
        for (const { form, term } of index.get(key) ?? []) {
          if (form === source || !isOneEditApart(source, form)) continue;
          const inserted = form.length === source.length + 1;
          if (letterLeftOut && !inserted) continue;
          if (
            spelt.length < MIN_ANY_EDIT_LENGTH &&
            !isSwap(source, form) &&
            !inserted &&
            !vowelMisheard(source, form, spelt)
          )
            continue;
          if (!found.includes(term)) found.push(term);
        }
      }
    };
    // The stem, and the word as written ("nwes" is a swap of "news", its stem "nwe" is not)…
    for (const source of new Set([word, spelt])) consider(source, this.index);
    // …and, when the stemmer found no ending in it, the word as written against the cards' words as written.
    if (!found.length && word === spelt) consider(spelt, this.writtenIndex);
    if (letterLeftOut) {
      // Only one term that fits, if any: a vowel-less word's one term stands alone, but any vowel may
      // have been left out ("lst": list, last, lost); a word with one ("lok") needs the others' card.
      const alone = VOWELLESS.test(spelt) && found.length === 1;
      const fitting = alone ? found : found.filter((term) => besideOthers?.(term));
      return fitting.length === 1 ? fitting[0] : undefined;
    }
    let best: string | undefined;
    for (const term of found) {
      if (!best || this.rarity(term) > this.rarity(best)) best = term;
      else if (this.rarity(term) === this.rarity(best) && besideOthers?.(term) && !besideOthers(best)) best = term;
    }
    return best;
  }
}

/** Indexes `form` (answering `term`) under itself and each of its one-character deletions. */
function indexUnder(index: Map<string, { form: string; term: string }[]>, form: string, term: string): void {
  if (form.length < MIN_TYPO_LENGTH || /\d/.test(form)) return;
  for (const key of [form, ...deletions(form)]) {
    const list = index.get(key);
    if (!list) index.set(key, [{ form, term }]);
    else if (!list.some((entry) => entry.form === form)) list.push({ form, term });
  }
}

/** The same letters, two neighbours swapped. */
function isSwap(a: string, b: string): boolean {
  const at = firstDifference(a, b);
  return at >= 0 && a[at] === b[at + 1] && a[at + 1] === b[at] && a.slice(at + 2) === b.slice(at + 2);
}

/** Where two words of one length first differ; -1 if they do not, or differ in length. */
function firstDifference(a: string, b: string): number {
  return a.length === b.length ? [...a].findIndex((c, i) => c !== b[i]) : -1;
}

function deletions(word: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < word.length; i++) out.push(word.slice(0, i) + word.slice(i + 1));
  return out;
}

/**
 * A short word written with one vowel (or "y") for another ("pley", "plau" for "play") that is no
 * English word as written, not even a rare one (isEnglishWord): vowels are the letters people
 * mishear and mistype most, and a word no dictionary has cannot be the other word one letter makes.
 * (Any other letter for another, tried too, cost the main set's dev split an item.)
 */
function vowelMisheard(source: string, form: string, spelt: string): boolean {
  return vowelFor(source, form) && !isEnglishWord(spelt);
}

/** The same letters but one vowel or "y" for another ("pley"/"play", "plau"/"play"). */
function vowelFor(a: string, b: string): boolean {
  const at = firstDifference(a, b);
  return at >= 0 && /[aeiouy]/.test(a[at]) && /[aeiouy]/.test(b[at]) && a.slice(at + 1) === b.slice(at + 1);
}
