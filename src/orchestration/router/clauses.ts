import { isEnglishWord } from './common-words';
import {
  asks,
  GENERIC_TERMS,
  isArgumentWord,
  isDiscourseWord,
  isStopword,
  opensAStatement,
  saysWhat,
  stem,
  words,
} from './text-analysis';

/**
 * A request cut into its intents (clauses): at conjunctions and punctuation, with what has no
 * intent of its own kept with its neighbour. English only.
 */

/** A clause that only says how much, how long or when ("40 minutes", "5:45", "at 3 pm", "3 dollars"): no intent of its own. */
function argumentOnly(clause: string): boolean {
  return words(clause).every((w) => /\d/.test(w) || isArgumentWord(w) || isStopword(w));
}

/** A clause that only steers the conversation ("never mind", "oh and", "ok thanks"): no intent of its own. */
function discourseOnly(clause: string): boolean {
  return words(clause).every(isDiscourseWord);
}

/** Words that open a clause saying more of what the clause before asks for ("…, *something* by Ian Rankin"). */
const ELABORATIONS = new Set([
  'something',
  'anything',
  'somewhere',
  'anywhere',
  'preferably',
  'ideally',
  'maybe',
  'perhaps',
]);

/**
 * A clause that only adds to the request beside it: what kind of thing it asks for ("I'd like a
 * book read to me, *something by Ian Rankin*"), or nothing it names at all ("is that the carer at
 * the door, *let me see*", "*show me*"). Not a question, nor one that tells ("something's burning").
 */
function addsToTheRequest(clause: string): boolean {
  const all = words(clause);
  if (asks(clause, all)) return false;
  if (ELABORATIONS.has(all[0])) return !tellsOf(clause) && !['is', 'was', 'has'].includes(all[1]);
  return all.every((w) => isStopword(w) || !saysWhat(w));
}

/** Pronouns for what a clause acts on ("turn *them* on", "open up for *him*", "note *that* down"). */
const OBJECT_PRONOUNS = new Set(['it', 'them', 'him', 'her', 'that', 'this', 'those', 'these']);
/** Words that say how much of an action ("warm it up *a bit*"), no more than a quantity does. */
const DEGREE_WORDS = new Set(['bit', 'little', 'lot', 'something']);

/** Who or what a statement can open with besides those opensAStatement knows ("*somebody's* at the door"). */
const SUBJECTS = new Set(['it', 'somebody', 'someone', 'nobody', 'everybody', 'everyone', 'this', 'that']);

/**
 * A clause that tells of something rather than asks for it: it opens with its subject - a pronoun,
 * a possessive or a name ("*my* DoorDash guy is stuck downstairs", "*Sofia's* twinkly lights",
 * "*Sofia* spotted me 15 for groceries"), where a request opens with its verb ("*park* the mower").
 */
function tellsOf(clause: string): boolean {
  const [first] = withoutPoliteOpening(words(clause));
  if (first === undefined) return false;
  return opensAStatement(first) || SUBJECTS.has(first) || opensWithAName(clause, first);
}

/** The most words a clause that only names a thing has (namesAThingOnly). */
const THING_WORDS = 3;

/**
 * A clause that only names a thing - in a few words, a name or someone's thing first, no question
 * ("we're out of milk, bread and *Weet-Bix*", "…and *Ouma's rusks*"): an item of a list, not a
 * request of its own.
 */
export function namesAThingOnly(clause: string): boolean {
  const all = words(clause);
  if (all.length === 0 || all.length > THING_WORDS || asks(clause, all)) return false;
  return opensWithAName(clause, all[0]);
}

/**
 * Whether a clause opens (its `first` word) with a name or someone's thing ("*Sofia* spotted me
 * 15", "*Sofia's* twinkly lights"). A name is a word no English word list has; so a verb the list
 * lacks reads as a name.
 */
function opensWithAName(clause: string, first: string): boolean {
  return /^\s*[\p{L}\p{N}]+['’]s\b/u.test(clause) || (!/\d/.test(first) && !isEnglishWord(first));
}

/** Words that make a statement a request: "I *need* a timer for 4 minutes", "we *want* the match on". */
const WANTING = new Set(['want', 'wanna', 'need', 'like', 'fancy']);

/**
 * A clause that says how things are ("she's at the door", "there's bangers going off", "Biji says
 * it's cold down there") - it tells of something (tellsOf) - and neither asks nor wishes for
 * anything: not a question, nor "I need a timer for 4 minutes", a request said as a statement.
 */
function saysHowThingsAre(clause: string): boolean {
  const all = words(clause);
  if (asks(clause, all)) return false;
  if (['i', 'we'].includes(all[0]) && all.slice(1, 4).some((w) => WANTING.has(w))) return false;
  return tellsOf(clause);
}

/** Where a request is cut into clauses: punctuation (not the full stops of initials, "D.C.") or a conjunction. */
const CONJUNCTION = /\b(?:and then|and also|(?<!\b(?:nice|lovely) )and|then|also|plus|as well as)\b/iu;
const CUTS = new RegExp(`[,;!?]+|(?<!\\b\\p{L})\\.+(?=\\s|$)|${CONJUNCTION.source}`, 'iu');

/**
 * Things added or ordered together, then where to or where from ("add *flour and sugar* to the
 * grocery list", "order *bread and milk* from Sixty60"): each "and" joins the things, not two
 * requests. (The things are a few words, as said: bounded, the pattern stays linear in the text.) Not when a thing after an "and" opens with a verb - a generic one ("add milk and *set*
 * the heating to 20") or another that a request opens with ("add milk and *switch* to the news",
 * "put Still Game on and *get* me a new audiobook from the library").
 */
const THINGS_TOGETHER =
  /\b(?:add|put|pop|stick|write|buy|order|grab)\s+[^,;.!?]{1,80}?\s+and\s+[^,;.!?]{0,80}?\s+(?:(?:to|onto)\s+(?:the|my|our|your)|from)\b/giu;
const OWN_VERBS = new Set(
  'switch skip go move jump listen talk send change bring drive head get make tell give show find let play'.split(' '),
);
const AND = /\s+and\s+/giu;
/** What stands for the "and" of things together while the request is cut. */
const JOINED = ' \u0000 ';

/** The request cut at punctuation and conjunctions (CUTS), but not at the "and" of things together (THINGS_TOGETHER). */
function cut(text: string): string[] {
  const kept = text.replace(THINGS_TOGETHER, (whole: string) => {
    const verbs = whole
      .split(AND)
      .slice(1)
      .some((thing) => {
        const [first = ''] = words(thing);
        return GENERIC_TERMS.has(stem(first)) || OWN_VERBS.has(first);
      });
    return verbs ? whole : whole.replace(AND, JOINED);
  });
  return kept.split(CUTS).map((part) => part.replaceAll(JOINED, ' and '));
}

/** "can you deal with it" asks for an action, not whether one can be done. */
function withoutPoliteOpening(all: string[]): string[] {
  return all[1] === 'you' && ['can', 'could', 'would', 'will'].includes(all[0]) ? all.slice(2) : all;
}

/**
 * A clause that only acts on what was named before it: its object a pronoun, nothing named but its
 * verb ("Sofia's twinkly lights, *turn them on*", "my DoorDash guy is stuck downstairs, *open up
 * for him*", "I owe Jaylen for gas, *square up with him*"). Not a question ("and *will it* be
 * sunny"), whose "it" is often nobody's, nor one that names something ("*start charging it*"),
 * and only after a clause that tells of something (tellsOf): after a request, what is asked next is
 * a request of its own ("*park* the mower and remind me to pay him", "*check* Sofia's grades and
 * venmo her 10 bucks").
 */
function actsOnWhatWasNamed(clause: string, before: string): boolean {
  const all = withoutPoliteOpening(words(clause));
  if (all.length === 0 || asks(clause, all)) return false;
  if (!all.some((w) => OBJECT_PRONOUNS.has(w))) return false;
  const named = all.filter((w) => !isStopword(w) && !OBJECT_PRONOUNS.has(w) && !DEGREE_WORDS.has(w) && saysWhat(w));
  // The verb is the first word that says something ("*square* up with him").
  const verb = all.find((w) => !isStopword(w) && !OBJECT_PRONOUNS.has(w));
  if (named.length > 1 || (named.length === 1 && named[0] !== verb)) return false;
  // What a request before it asks for is no thing named ("check Sofia's grades and venmo her 10 bucks").
  // (Last: it reads the word lists, which most clauses never need.)
  return tellsOf(before);
}

/**
 * Cuts a request into clauses at conjunctions and punctuation: "lights on and play jazz" → 2 (not
 * the "and" of "nice and warm", which says how warm, nor the full stops of initials, "D.C."). A
 * clause that only says how much, how long or when, only steers the conversation, or only adds to
 * the request (addsToTheRequest) belongs to the clause before it (the one after it, first): "start
 * a timer for the cake, 40 minutes", "never mind, just unlock the door" and "play me a book,
 * something by Ian Rankin" are one intent each, not two. So does one that only acts on
 * what the clause before it named (actsOnWhatWasNamed): "Sofia's twinkly lights, turn them on".
 * Clauses only punctuation parts, one of which says how things are, are one request: the statement
 * says why, for whom or where ("let my sister in, she's at the door"; "Biji says it's cold down
 * there, bump her room up"); two requests are joined by a word ("…and put some jazz on").
 */
export function clauses(text: string): string[] {
  const parts = cut(text)
    .map((c) => c.trim())
    .filter((c) => words(c).length > 0);
  if (parts.length > 1 && !CONJUNCTION.test(text) && parts.some(saysHowThingsAre)) return [text.trim()];
  const merged: string[] = [];
  let pending: string | undefined;
  for (const part of parts) {
    if (merged.length && actsOnWhatWasNamed(part, merged[merged.length - 1])) {
      merged[merged.length - 1] += `, ${part}`;
      continue;
    }
    if ((argumentOnly(part) || discourseOnly(part) || addsToTheRequest(part)) && parts.length > 1) {
      if (merged.length) merged[merged.length - 1] += `, ${part}`;
      else pending = pending ? `${pending}, ${part}` : part;
      continue;
    }
    merged.push(pending ? `${pending}, ${part}` : part);
    pending = undefined;
  }
  if (pending) merged.push(pending);
  return merged;
}
