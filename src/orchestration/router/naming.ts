import type { AgentProfile } from '../../a2a/agent-profile';
import { GENERIC_TERMS, stem, words } from './text-analysis';

/** Words that introduce a helper or a place by its name: "*on* the calendar", "*ask* the wiki", "*via* Spotify". */
const NAMING = new Set(
  'on in into onto to with through via using use from by at ask tell open get have let'.split(' '),
);
/** Words between such a word and the name: "on *the* calendar", "in *my* family calendar". */
const NAME_DETERMINERS = new Set(['the', 'a', 'an', 'my', 'our', 'your', 'its', 'this', 'that']);

/**
 * Whether the text names an agent deliberately: a word of its name (`name`: the name's terms,
 * stemmed; `nameWords`: its words as written, stopwords too) as the place or the helper of the
 * request - "put it *on the calendar*", "book it *through Rail Departures*", "*ask* the wiki" - not
 * as what the request is about ("book a *train* ticket" does not name an agent called Trains).
 */
export function namesDeliberately(name: ReadonlySet<string>, text: string, nameWords: ReadonlySet<string>): boolean {
  const all = words(text);
  const inName = (word: string) => {
    const term = stem(word);
    return name.has(term) && !GENERIC_TERMS.has(term);
  };
  return all.some((word, i) => {
    if (!inName(word)) return false;
    // Back over the name's other words - "Just" of "Just Eat" too, though it is no term - and any
    // determiner to what introduces it.
    let at = i - 1;
    while (at >= 0 && (inName(all[at]) || nameWords.has(all[at]) || NAME_DETERMINERS.has(all[at]))) at--;
    return at >= 0 && NAMING.has(all[at]);
  });
}

/** An agent's name and id as words: both are evidence of what it does. */
export function nameOf(agent: AgentProfile): string {
  return `${agent.name} ${agent.id.replace(/-/g, ' ')}`;
}

/**
 * A name of several words with its initials ("Albert Heijn AH"): people call an agent by them
 * ("order coffee at *AH*").
 */
export function withItsInitials(name: string): string {
  const all = words(name);
  return all.length >= 2 ? `${name} ${all.map((word) => word[0]).join('')}` : name;
}

/**
 * A text (an agent's name, a card's line) with the words of each word written as one ("SkipTheDishes"
 * → "Skip The Dishes", "JioSaavn" → "Jio Saavn", "eAudiobooks" → "e Audiobooks"): people call an
 * agent by one of them ("order from *Skip*") and ask for the thing by its own word ("my audiobook").
 */
export function withItsParts(name: string): string {
  const parts = name
    .split(/\s+/)
    .filter((word) => /\p{Ll}\p{Lu}|\p{L}\p{N}/u.test(word))
    .flatMap((word) => word.match(/\p{Lu}?\p{Ll}+|\p{Lu}+(?!\p{Ll})|\p{N}+/gu) ?? []);
  return parts.length ? `${name} ${parts.join(' ')}` : name;
}
