import { asks, isDiscourseWord, isGenericVerb, opensAStatement, stem, words } from './text-analysis';

/**
 * What a request says of the conversation it is in: whether it refers back to it ("turn *it*
 * off", "and tomorrow?"), only adjusts what is going on ("louder"), does something to the thing
 * said before ("close it again"), stands alone, or - as a clause - gives context rather than asks.
 */

/** Words that point back to something said before ("turn *it* off"). */
const ANAPHORS = new Set(['it', 'that', 'this', 'them', 'those', 'these', 'one', 'again', 'same']);
/** Openings that carry on from what was said before ("what about saturday?", "and in the bedroom"). */
const ELLIPSIS = /^\s*(?:and|also|what about|how about|what if|same for)\b/i;

/**
 * A clause that says how things are or points at another clause ("I'm heading up to bed", "pop
 * *that* in"): beside a request, context for it rather than an intent of its own. Not a question.
 */
export function isContext(clause: string): boolean {
  if (clause.trim().endsWith('?')) return false;
  const [first] = words(clause);
  return (first !== undefined && opensAStatement(first)) || words(clause).some((w) => ANAPHORS.has(w));
}

/**
 * A yes/no question about the asker ("do I need to stop for petrol", "will we get through the
 * night", "am I going to make it"): beside a request, most often what its answer means for them.
 * Not "can I …" or "could we …", which ask for something ("can I get a taxi").
 */
export function asksWhatFollows(clause: string): boolean {
  return WHAT_FOLLOWS.test(clause);
}
const WHAT_FOLLOWS = /^\s*(?:do|will|would|should|shall|am|are|have)\s+(?:i|we)\b/i;

/**
 * Does the text point at a thing named elsewhere ("I'm sick of *this one*", "pop *that* in")? Not
 * by "it", which as often points at nothing ("is *it* going to be warm", "*it's* freezing").
 */
export function pointsAt(text: string): boolean {
  return words(text).some((w) => DEMONSTRATIVES.has(w));
}
const DEMONSTRATIVES = new Set(['this', 'that', 'these', 'those']);

/** Pronouns for people ("write my essay about *him*", "when did *she* die"): someone said before. */
const PERSONS = new Set(['he', 'she', 'him', 'her', 'his', 'hers', 'they', 'them', 'their', 'theirs']);
/** A request of this many words or more can be a request of its own in a conversation (standsAlone). */
const STANDS_ALONE_WORDS = 6;

/**
 * A request that does not lean on the conversation: as long as a request of its own, and pointing
 * at nothing and no one said before ("pencil in a picnic with the Hendersons on Sunday"; not
 * "write my essay about *him*", "and for the weekend?", "turn *it* down a bit more please").
 */
export function standsAlone(text: string): boolean {
  const all = words(text);
  return all.length >= STANDS_ALONE_WORDS && !refersBack(text) && !all.some((w) => PERSONS.has(w));
}

/**
 * Verbs a request opens with when it asks for something new, besides the generic ones
 * (isGenericVerb: "turn", "set", "open"): those of the home's devices and errands.
 */
const COMMANDS = new Set(
  (
    'switch shut lock unlock dim brighten raise lower play pause resume skip record remind text phone ring book ' +
    'run make show tell let give get find arm disarm mute unmute preheat heat cool warm boil feed water schedule ' +
    'note message email'
  ).split(' '),
);

/**
 * "and" and "also" that only join a new request to the conversation ("and *set* the grill to 120",
 * "and *shut* the chooks in"): what follows opens with a command of its own, and goes on to say
 * what it acts on. Not "and the bedroom?", "and tomorrow night?", "and *turn* it off" (an anaphor).
 */
function joinsANewRequest(text: string): boolean {
  const all = words(text);
  const verb = all[1] ?? '';
  return /^(?:and|also)$/.test(all[0] ?? '') && (COMMANDS.has(verb) || isGenericVerb(stem(verb))) && all.length >= 4;
}

/** Does the text refer back to something earlier in the conversation? */
export function refersBack(text: string): boolean {
  return (ELLIPSIS.test(text) && !joinsANewRequest(text)) || words(text).some((w) => ANAPHORS.has(w));
}

/** Words a request opens with before its verb ("*and* close it", "*now* lock them", "*can you* turn it off"). */
const BEFORE_THE_VERB = new Set(['and', 'now', 'then', 'please', 'just', 'ok', 'okay', 'can', 'could', 'you', 'also']);

/** Pronouns for a thing said before. */
const THING_PRONOUNS = new Set(['it', 'them', 'that', 'this', 'those', 'these']);

/**
 * The verb of a request that does something to a thing said before ("close *it* again", "now lock
 * *them*", "turn *it* off"), if it is one: its verb first, the thing a pronoun right after.
 */
export function verbActingOnIt(text: string): string | undefined {
  const all = words(text);
  let at = 0;
  while (at < all.length && BEFORE_THE_VERB.has(all[at])) at++;
  // Not a question ("is it cold out?"), whose "it" is often nobody's.
  if (asks(text, all.slice(at))) return undefined;
  return THING_PRONOUNS.has(all[at + 1] ?? '') ? all[at] : undefined;
}

/**
 * A request that leaves out the thing it asks about, naming only whose ("and Dennis's?", "what
 * about Sofia's"): the thing is the one the conversation is about.
 */
export function leavesOutItsThing(text: string): boolean {
  return /\p{L}['’]s?[\s?.!]*$/u.test(text) && words(text).length <= 4;
}

/** Words that change how what is going on goes - its volume, its place, its pace, its heat or light - and name nothing. */
const ADJUSTMENTS = new Set(
  (
    'louder quieter softer lower higher up down pause resume unpause stop skip next previous back again more less ' +
    'mute unmute faster slower hotter colder warmer cooler brighter dimmer'
  ).split(' '),
);
/**
 * Words that ask for nothing of their own beside an adjustment ("turn *it* up a *bit*", "play the
 * *next one*"), and the parts of what is playing an adjustment moves through ("skip to the next
 * *chapter*", "go back a *track*"): the conversation's, whatever card has the word.
 */
const ADJUSTMENT_COMPANIONS = new Set(
  (
    'turn go play put it that this one the a bit little lot much way volume sound time to ' +
    'chapter chapters episode episodes track tracks song songs station stations channel channels'
  ).split(' '),
);

/**
 * A request that only adjusts what is going on ("louder", "pause it", "turn the volume down", "next
 * one"): in a conversation, something the conversation's agent is doing, whatever card has the word.
 */
export function adjustsOnly(text: string): boolean {
  const all = words(text);
  return (
    all.some((w) => ADJUSTMENTS.has(w)) &&
    all.every((w) => ADJUSTMENTS.has(w) || ADJUSTMENT_COMPANIONS.has(w) || isDiscourseWord(w))
  );
}
