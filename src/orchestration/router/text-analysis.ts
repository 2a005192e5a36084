/**
 * The small amount of language handling the built-in router needs: words to terms, the user's
 * own words out of a Home Assistant prompt, questions and quotes. conversation-cues.ts says what
 * refers back and what only adjusts; clauses.ts cuts a request into its intents. English only;
 * an LLM router (ROUTER_MODEL) covers the rest.
 */

/** Words whose ending is not an inflection ("news" is not the plural of "new"). */
const UNSTEMMED = new Set(['news', 'series', 'species', 'always', 'perhaps']);

const STOPWORDS = new Set(
  (
    'a an the and or but if then than so to of in into at by for from with about as is are was were be been ' +
    'being am do does did doing have has had having i me my we our you your he she they them their it its ' +
    'this that these those there here what which who whom whose when where why how can could would should ' +
    'will shall may might must please pls thanks thank hey hi hello ok okay just also too very really some any ' +
    'all each every no not only own same such both few more most other let lets me us would like want need ' +
    'get got make made go going gonna tell give show know find whether because although though unless'
  ).split(/\s+/),
);

/**
 * Words people use for everything - times, and verbs any agent could be asked - as terms: on an
 * agent's card they are real evidence only next to a word that is not one of them ("pay the
 * electricity bill" is not a checkout; "order a pizza" is not the shop's).
 */
export const GENERIC_TERMS: ReadonlySet<string> = new Set(
  (
    'now today tonight tomorrow yesterday later soon morning evening week time ' +
    'cancel search pay order add remove check set start stop open close new update change call send ' +
    'read list help turn put take keep use see look try ask buy up down on off out over back'
  )
    .split(/\s+/)
    .map((word) => stem(word)),
);

/** The generic terms that say when (GENERIC_TERMS): the rest are what is done ("turn", "off", "set"). */
const TIME_TERMS: ReadonlySet<string> = new Set(
  'now today tonight tomorrow yesterday later soon morning evening week time'.split(/\s+/).map((word) => stem(word)),
);

/** Particles of a verb ("turn *off*", "catch *up*"): on their own they say nothing of what is done. */
const PARTICLES: ReadonlySet<string> = new Set('up down on off out over back'.split(' '));

/** A generic term saying what is done ("*turn* it *off*", "*set*", "*check*"), not when. */
export function isGenericAction(term: string): boolean {
  return GENERIC_TERMS.has(term) && !TIME_TERMS.has(term);
}

/** A generic verb (isGenericAction), not a particle: "*turn*", not "off". */
export function isGenericVerb(term: string): boolean {
  return isGenericAction(term) && !PARTICLES.has(term);
}

/** Lower-cased words, letters and digits only; contractions undone ("don't" → "do not", "it's" → "it"). */
export function words(text: string): string[] {
  const plain = text
    .toLowerCase()
    .replace(/\b(can|won)['’]t\b/g, (_, w: string) => (w === 'can' ? 'can not' : 'will not'))
    .replace(/n['’]t\b/g, ' not')
    .replace(/['’](?:s|re|ll|d|m|ve)\b/g, '');
  return plain.match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** A crude English stemmer: enough for "lights"/"light", "playing"/"play", "dimmed"/"dim". */
export function stem(word: string): string {
  if (word.length <= 3 || /\d/.test(word) || UNSTEMMED.has(word)) return word;
  let w = word;
  if (w.endsWith('ies') && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (w.endsWith('sses') || /(?:ch|sh|x|zz)es$/.test(w)) w = w.slice(0, -2);
  else if (w.endsWith('s') && !w.endsWith('ss') && !w.endsWith('us') && !w.endsWith('is')) w = w.slice(0, -1);
  if (w.length > 5 && w.endsWith('ing')) w = undouble(w.slice(0, -3));
  else if (w.length > 4 && w.endsWith('ed')) w = undouble(w.slice(0, -2));
  else if (w.length > 4 && w.endsWith('er')) w = undouble(w.slice(0, -2));
  return w;
}

function undouble(w: string): string {
  return w.length > 2 && w[w.length - 1] === w[w.length - 2] && !'lsz'.includes(w[w.length - 1]) ? w.slice(0, -1) : w;
}

/** The terms of a text that carry meaning: stemmed, stopwords removed. */
export function terms(text: string): string[] {
  return termsOfWords(text).map((t) => t.term);
}

/**
 * `terms`, each with the word it was stemmed from - a chat spelling's as the word it stands for
 * ("wats" is "what's", not a term it shares with "water"; "tmr" is "tomorrow").
 */
export function termsOfWords(text: string): { word: string; term: string }[] {
  return words(text)
    .flatMap((word) => {
      const chat = chatSpelling(word);
      return chat ? words(chat) : [word];
    })
    .filter((w) => !STOPWORDS.has(w) && (w.length > 1 || /\d/.test(w)))
    .map((word) => ({ word, term: stem(word) }))
    .filter(({ term }) => !STOPWORDS.has(term));
}

/** Does a word say what is asked - not how much, how long, when or which one, nor a generic verb? */
export function saysWhat(word: string): boolean {
  return !/\d/.test(word) && !ARGUMENT_WORDS.has(word) && !ORDER_WORDS.has(word) && !GENERIC_TERMS.has(stem(word));
}

/**
 * Words that say which one of several ("my *first* appointment", "the *next* train", "the *last*
 * song"): any agent's things come in order, so the word is no sign that another card is meant.
 * (On a card it is still evidence: "next" is a music player's command.)
 */
const ORDER_WORDS = new Set(['first', 'second', 'third', 'next', 'last', 'previous', 'final']);

/** A term that only says which one (ORDER_WORDS): on a card, evidence, but not of what is asked. */
export function isOrder(term: string): boolean {
  return ORDER_WORDS.has(term);
}

/**
 * A term that only says how many ("two", "15", "half"): no evidence of what is asked. (Days and
 * units of time are: a calendar's or a timer's card has them for a reason.)
 */
export function isQuantity(term: string): boolean {
  return /^\d+$/.test(term) || QUANTITY_WORDS.has(term);
}

/** Words that only introduce the word after them. */
const DETERMINERS = new Set(['the', 'a', 'an', 'some', 'any', 'my', 'your', 'our', 'more', 'of']);

/** A clause of one word ("play jazz and *blues*", "and *the kitchen*"): part of a list, not an intent of its own. */
export function isFragment(clause: string): boolean {
  return words(clause).filter((w) => !DETERMINERS.has(w)).length <= 1;
}

/**
 * Openings of a statement rather than a request: a subject first ("*I'm* heading up to bed", "*my*
 * toes are numb", "*the* kids have practice on Thursday"), where a request opens with its verb or
 * its question word.
 */
const STATEMENT_OPENINGS = new Set([
  'i',
  'we',
  'my',
  'our',
  'the',
  'there',
  'he',
  'she',
  'they',
  'his',
  'her',
  'their',
]);

/** Words English writes with a capital that name no thing of a card's ("on *Friday*"). */
const CALENDAR_WORDS = new Set(
  (
    'monday tuesday wednesday thursday friday saturday sunday january february march april may june july ' +
    'august september october november december'
  ).split(' '),
);

/**
 * Names in a line: words written with a capital inside a sentence, alone or in a run ("on *Floss*,
 * the border collie", "the *Civic*", "watch *Fair Go*", "turn on *Keep Warm*") - not the first word
 * of a sentence (its capital says where it is), nor a day or a month alone, nor "I" ("I'd", "I'm").
 */
export function properNames(line: string): string[] {
  const names: string[] = [];
  let run: string[] = [];
  let opens = false;
  const flush = () => {
    const said = opens ? run.slice(1) : run;
    if (said.length > 1 || (said.length === 1 && !CALENDAR_WORDS.has(said[0].toLowerCase()))) {
      names.push(said.join(' '));
    }
    run = [];
  };
  const tokens = line.split(/\s+/).filter(Boolean);
  tokens.forEach((token, i) => {
    const word = token.replace(/^[("'“‘]+|(?:['’]s)?[)"'”’.,!?:;]*$/gu, '');
    if (!/^\p{Lu}[\p{L}\p{N}'’-]+$/u.test(word) || /^I['’]/.test(word)) return flush();
    if (!run.length) opens = i === 0 || /[.!?]["')”’]?$/.test(tokens[i - 1]);
    run.push(word);
    // Punctuation after a word ends the name ("Floss, the border collie").
    if (word !== token.replace(/^[("'“‘]+/u, '')) flush();
  });
  flush();
  return names;
}

/** Openings of a question, whose "it" is often nobody's ("will *it* be sunny", "how cold is *it*"). */
const QUESTION_OPENINGS = new Set(
  'what how who whom whose which when where why is are was were will would can could do does did should shall'.split(
    ' ',
  ),
);

/** Whether a clause asks a question: a question mark, or a question's opening (`all`: its words, from where it opens). */
export function asks(clause: string, all = words(clause)): boolean {
  return clause.trim().endsWith('?') || QUESTION_OPENINGS.has(all[0]);
}

/**
 * The user's own words. Home Assistant sends a long rendered prompt before "\n\nUser: <text>" on
 * the first turn of a conversation; routing on the prompt would route every request alike.
 */
export function userUtterance(text: string): string {
  const marker = /(?:^|\n)[ \t]*User:[ \t]*/g;
  let start = -1;
  for (let match = marker.exec(text); match; match = marker.exec(text)) start = match.index + match[0].length;
  return (start >= 0 ? text.slice(start) : text).trim();
}

/** Words that say how many. */
const QUANTITY_WORDS = new Set(
  (
    'one two three four five six seven eight nine ten eleven twelve fifteen twenty thirty forty fifty sixty ' +
    'ninety hundred half quarter'
  ).split(' '),
);

/** Words that say how much (a number, a sum of money), how long or when - never what to do. */
const ARGUMENT_WORDS = new Set([
  ...QUANTITY_WORDS,
  ...(
    'sec secs second seconds min mins minute minutes hr hrs hour hours day days week weeks month months ' +
    'year years am pm oclock noon midnight today tonight tomorrow morning afternoon evening night monday ' +
    'tuesday wednesday thursday friday saturday sunday dollar dollars buck bucks cent cents pound pounds quid ' +
    'pence euro euros'
  ).split(' '),
]);

/**
 * Words that only steer the conversation - change course, acknowledge, soften - and ask for
 * nothing: "*never mind*, just unlock the door", "*ok thanks*, and the porch light", "is the
 * garage shut, *by the way*".
 */
const DISCOURSE_WORDS = new Set(
  (
    'never mind actually oh ok okay well sorry wait anyway anyways right cheers cool great perfect yes yeah ' +
    'yep no nope nah hmm um uh alright fine lovely brilliant sure thanks thank you please hey hi hello just so instead ' +
    'by the way'
  ).split(' '),
);

/** Words of no meaning of their own ("the", "to", "it"): never terms. */
export function isStopword(word: string): boolean {
  return STOPWORDS.has(word);
}

/** A word that says how much, how long or when (ARGUMENT_WORDS). */
export function isArgumentWord(word: string): boolean {
  return ARGUMENT_WORDS.has(word);
}

/** A word that only steers the conversation (DISCOURSE_WORDS). */
export function isDiscourseWord(word: string): boolean {
  return DISCOURSE_WORDS.has(word);
}

/** A word a statement opens with, its subject first (STATEMENT_OPENINGS). */
export function opensAStatement(word: string): boolean {
  return STATEMENT_OPENINGS.has(word);
}

/** The first `max` characters of a text, cut at the last space within them if there is one. */
export function openingOf(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  const space = cut.search(/\s\S*$/);
  return space > 0 ? cut.slice(0, space) : cut;
}

/** Text in double quotes ("…", “…”), any number of words. */
const DOUBLE_QUOTED = /["“][^"“”]+["”]/g;
/**
 * Text in single quotes ('…', ‘…’) of several words: an opening quote after no letter, a closing
 * one before none, so the apostrophes of "it's", "don't", "the kids' room" pair with nothing -
 * though one may stand inside the quote between letters ('I'm late').
 */
const SINGLE_QUOTED =
  /(?<![\p{L}\p{N}])['‘][\p{L}\p{N}](?:[^'‘’]|(?<=\p{L})['’](?=\p{L}))*?\s(?:[^'‘’]|(?<=\p{L})['’](?=\p{L}))*?['’](?![\p{L}\p{N}])/gu;

/**
 * The request without what it quotes, when the words outside the quotes say something: quoted
 * text is what is said, not what is asked (translate "*lock the door*" into Spanish, add "*call
 * the plumber*" to my to-do list, text Jamie "*I'm running late*"). For the card-word evidence
 * only: agents receive the request whole, and the sentence model reads it whole.
 */
export function unquoted(text: string): string {
  if (!/["“'‘]/.test(text)) return text;
  const rest = text.replace(DOUBLE_QUOTED, ' , ').replace(SINGLE_QUOTED, ' , ');
  return rest !== text && terms(rest).length > 0 ? rest : text;
}

/**
 * Spellings of everyday words as people type them to an assistant - not typos of a card word, and
 * too far from the word for an edit to find ("tonite", "2moro", "u"): the sentence model, which
 * has read them seldom, reads the word instead (DefaultRouter.spelledOut), and so do the card
 * words (termsOfWords).
 */
const CHAT_SPELLINGS = new Map<string, string>([
  ['u', 'you'],
  ['ur', 'your'],
  ['ya', 'you'],
  ['wat', 'what'],
  ['wot', 'what'],
  ['pls', 'please'],
  ['plz', 'please'],
  ['thx', 'thanks'],
  ['tonite', 'tonight'],
  ['nite', 'night'],
  ['2day', 'today'],
  ['2nite', 'tonight'],
  ['2moro', 'tomorrow'],
  ['2morrow', 'tomorrow'],
  ['tmrw', 'tomorrow'],
  ['tmr', 'tomorrow'],
  ['tmro', 'tomorrow'],
  ['tdy', 'today'],
  ['wats', "what's"],
  ['wots', "what's"],
  ['gonna', 'going to'],
  ['wanna', 'want to'],
  ['gotta', 'got to'],
  ['coz', 'because'],
  ['cuz', 'because'],
  ['b4', 'before'],
  ['msg', 'message'],
  ['txt', 'text'],
  ['ppl', 'people'],
]);

/** The word a chat spelling stands for ("tonite" → "tonight"), if `word` is one (CHAT_SPELLINGS). */
export function chatSpelling(word: string): string | undefined {
  return CHAT_SPELLINGS.get(word.toLowerCase());
}
