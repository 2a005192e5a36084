import { DomainError } from '../../platform/errors/domain-error';

/** Which product a step is about. */
export type ItemRef =
  | { kind: 'id'; id: string }
  /** Position in the last search's results, from 0 ("the second one" → 1). */
  | { kind: 'position'; index: number }
  /** The product the conversation is about ("add *it*", "add two to my cart"). */
  | { kind: 'current' }
  /** Named by words: the best search hit. */
  | { kind: 'query'; query: string };

export type ShoppingStep =
  | { action: 'search'; query: string; limit?: number }
  | { action: 'details'; item: ItemRef }
  | { action: 'add_to_cart'; item: ItemRef; quantity: number }
  | { action: 'remove_from_cart'; item: ItemRef }
  | { action: 'view_cart' }
  | { action: 'checkout' }
  /** Nothing to look for: say what the shop can do. */
  | { action: 'help' };

export type ShoppingAction = Exclude<ShoppingStep['action'], 'help'>;

export const SHOPPING_ACTIONS: readonly ShoppingAction[] = [
  'search',
  'details',
  'add_to_cart',
  'remove_from_cart',
  'view_cart',
  'checkout',
];

export const MAX_QUANTITY = 999;
const MAX_QUERY_LENGTH = 200;
const MAX_SEARCH_LIMIT = 20;

const ITEM_ID = /\bprod_[a-z0-9_-]+\b/i;

const CHECKOUT =
  /\b(?:check\s?out|pay|place\s+(?:the\s+|my\s+|an\s+|this\s+)?order|complete\s+(?:the\s+|my\s+)?(?:order|purchase)|proceed\s+to)\b/;
const REMOVE = /\b(?:remove|delete|drop|take\s+(?:.+\s+)?out|get\s+rid\s+of)\b/;
const ADD = /\b(?:add|put|throw|buy|order|i'?ll\s+take|i\s+will\s+take)\b/;
const CART = /\b(?:cart|basket|bag)\b/;
const DETAILS =
  /\b(?:details?|tell\s+me\s+(?:more\s+)?about|more\s+about|describe|info(?:rmation)?|specs?|how\s+much|price\s+of)\b/;

/** Words that start a new instruction: "…blue mug *and add* two…" splits there, "blue *and white* mugs" does not. */
const INSTRUCTION_START =
  /^(?:add|put|throw|buy|order|remove|delete|drop|take|get|show|view|see|check|checkout|pay|place|complete|proceed|what|what's|whats|tell|describe|give|find|search|look|how|i'll|i'd|i)\b/;

/** Words that carry no product meaning in a shopping request. */
const FILLER = new Set(
  (
    "a an the some any me my mine i i'm im i'd i'll we us our you your please pls can could would will " +
    'do does did have has is are was be there here what which that to of for in into on at from with by ' +
    'and or also too just now then more again want need like looking look find search show see get give ' +
    'tell about details detail describe info information spec specs how much price cost add put throw buy ' +
    "order take remove delete drop out rid cart basket bag item items product products sell stock hi hello hey thanks it's"
  ).split(/\s+/),
);

/** What refers back to the product being talked about. */
const ANAPHORS = new Set(['it', 'them', 'that', 'those', 'these', 'this', 'one', 'ones']);

const NUMBER_WORDS: Record<string, number> = {
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  dozen: 12,
};

/** "the one", "that one", "the second one": "one" names a product, it does not count. */
const NOT_A_COUNT_BEFORE_ONE = new Set([
  'the',
  'that',
  'this',
  'which',
  'other',
  'same',
  'last',
  'top',
  'first',
  'second',
  'third',
  'fourth',
  'fifth',
]);

const ORDINALS: Record<string, number> = {
  first: 0,
  '1st': 0,
  second: 1,
  '2nd': 1,
  third: 2,
  '3rd': 2,
  fourth: 3,
  '4th': 3,
  fifth: 4,
  '5th': 4,
  top: 0,
};

/**
 * A shopper's words as steps, in order: "find me a blue mug and add two to my cart" is a search
 * for "blue mug", then adding two of what it found. English only and rule-based: each clause is
 * checkout, removal, addition, a look at the cart, a question about one product, or a search.
 */
export function parseShoppingText(text: string): ShoppingStep[] {
  const steps = instructions(text).map(stepOf);
  return steps.length > 0 ? steps : [{ action: 'help' }];
}

/**
 * A structured request (a data part), as the card's skills describe it:
 * `{"action": "add_to_cart", "item_id": "prod_…", "quantity": 2}`, `{"action": "search", "query": "mug"}`.
 */
export function parseShoppingData(data: unknown): ShoppingStep {
  if (typeof data !== 'object' || data === null || Array.isArray(data))
    throw DomainError.validation([{ field: 'data', reason: 'must be an object with an "action"' }]);
  const input = data as Record<string, unknown>;
  const action = input.action ?? input.skill;
  if (typeof action !== 'string' || !(SHOPPING_ACTIONS as readonly string[]).includes(action))
    throw DomainError.validation([{ field: 'action', reason: `must be one of ${SHOPPING_ACTIONS.join(', ')}` }]);
  switch (action as ShoppingAction) {
    case 'search':
      return { action: 'search', query: queryOf(input.query), limit: limitOf(input.limit) };
    case 'details':
      return { action: 'details', item: itemIdOf(input.item_id) };
    case 'add_to_cart':
      return { action: 'add_to_cart', item: itemIdOf(input.item_id), quantity: quantityOf(input.quantity) };
    case 'remove_from_cart':
      return { action: 'remove_from_cart', item: itemIdOf(input.item_id) };
    case 'view_cart':
      return { action: 'view_cart' };
    case 'checkout':
      return { action: 'checkout' };
  }
}

/** The text cut into instructions at sentence ends, and at commas and "and"/"then" before an instruction word. */
function instructions(text: string): string[] {
  const normalized = text.toLowerCase().replace(/[’‘]/g, "'").slice(0, 2_000);
  const pieces = normalized.split(/([.;!?\n]+|,|\band then\b|\band\b|\bthen\b|\bplus\b|\balso\b)/);
  const out: string[] = [];
  for (let i = 0; i < pieces.length; i += 2) {
    const piece = pieces[i].trim();
    const separator = i > 0 ? pieces[i - 1] : '';
    const hardBreak = /[.;!?\n]/.test(separator);
    if (out.length === 0 || hardBreak || INSTRUCTION_START.test(piece)) {
      if (piece) out.push(piece);
    } else if (piece) {
      out[out.length - 1] = `${out[out.length - 1]} ${separator.trim()} ${piece}`.trim();
    }
  }
  return out.filter((clause) => words(clause).length > 0);
}

function stepOf(clause: string): ShoppingStep {
  if (CHECKOUT.test(clause)) return { action: 'checkout' };
  if (REMOVE.test(clause)) return { action: 'remove_from_cart', item: itemIn(clause) };
  if (ADD.test(clause)) {
    const { quantity, rest } = quantityIn(clause);
    return { action: 'add_to_cart', item: itemIn(rest), quantity };
  }
  if (CART.test(clause)) return { action: 'view_cart' };
  const id = ITEM_ID.exec(clause);
  if (DETAILS.test(clause) || (id && meaningful(clause.replace(ITEM_ID, '')).length === 0))
    return { action: 'details', item: itemIn(clause) };
  const query = meaningful(clause).join(' ');
  if (!query) return { action: 'help' };
  const ordinal = ordinalIn(clause);
  // "the second one" after a search: that result's details.
  if (ordinal !== undefined && query.split(' ').every((w) => w in ORDINALS || ANAPHORS.has(w)))
    return { action: 'details', item: { kind: 'position', index: ordinal } };
  return { action: 'search', query };
}

/** The product a clause names: an id, a position in the last results, "it", or words to search for. */
function itemIn(clause: string): ItemRef {
  const id = ITEM_ID.exec(clause);
  if (id) return { kind: 'id', id: id[0] };
  const ordinal = ordinalIn(clause);
  const rest = meaningful(clause).filter((w) => !(w in ORDINALS) && !/^#?\d+$/.test(w));
  if (ordinal !== undefined && rest.every((w) => ANAPHORS.has(w))) return { kind: 'position', index: ordinal };
  const named = rest.filter((w) => !ANAPHORS.has(w));
  return named.length === 0 ? { kind: 'current' } : { kind: 'query', query: named.join(' ') };
}

function ordinalIn(clause: string): number | undefined {
  for (const word of words(clause)) if (word in ORDINALS) return ORDINALS[word];
  const numbered = /(?:#|\bnumber\s+|\bno\.?\s*)(\d{1,2})\b/.exec(clause);
  return numbered ? Math.max(0, Number(numbered[1]) - 1) : undefined;
}

/** "add *two* blue mugs" → 2 and "add blue mugs"; no number → 1. */
function quantityIn(clause: string): { quantity: number; rest: string } {
  const pair = /\ba\s+(?:couple|pair)(?:\s+of)?\b/.exec(clause);
  if (pair) return { quantity: 2, rest: clause.replace(pair[0], ' ') };
  const tokens = clause.split(/\s+/);
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i].replace(/[^\w#]/g, '');
    const before = (tokens[i - 1] ?? '').replace(/[^\w]/g, '');
    let quantity: number | undefined;
    // "#2" and "number 2" are positions, "the second one" and "that one" no quantity.
    if (/^\d{1,4}$/.test(token) && before !== 'number' && before !== 'no') quantity = Number(token);
    else if (token in NUMBER_WORDS && !(token === 'one' && NOT_A_COUNT_BEFORE_ONE.has(before)))
      quantity = NUMBER_WORDS[token];
    if (quantity !== undefined) return { quantity, rest: tokens.filter((_, k) => k !== i).join(' ') };
  }
  return { quantity: 1, rest: clause };
}

function words(text: string): string[] {
  return text.match(/[\p{L}\p{N}_'#-]+/gu) ?? [];
}

/** The words that say which product: no filler, no stray punctuation. */
function meaningful(clause: string): string[] {
  return words(clause)
    .map((w) => w.replace(/^'+|'+$/g, ''))
    .filter((w) => w && !FILLER.has(w));
}

function queryOf(value: unknown): string {
  if (typeof value !== 'string' || !value.trim())
    throw DomainError.validation([{ field: 'query', reason: 'must be a non-empty string' }]);
  if (value.length > MAX_QUERY_LENGTH)
    throw DomainError.validation([{ field: 'query', reason: `must be at most ${MAX_QUERY_LENGTH} characters` }]);
  return value.trim();
}

function limitOf(value: unknown): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isInteger(value) || (value as number) < 1 || (value as number) > MAX_SEARCH_LIMIT)
    throw DomainError.validation([{ field: 'limit', reason: `must be an integer from 1 to ${MAX_SEARCH_LIMIT}` }]);
  return value as number;
}

function itemIdOf(value: unknown): ItemRef {
  if (typeof value !== 'string' || !value.trim() || value.length > 100)
    throw DomainError.validation([{ field: 'item_id', reason: 'must be a product id such as prod_mug_blue' }]);
  return { kind: 'id', id: value.trim() };
}

function quantityOf(value: unknown): number {
  if (value === undefined) return 1;
  if (!Number.isInteger(value) || (value as number) < 1 || (value as number) > MAX_QUANTITY)
    throw DomainError.validation([{ field: 'quantity', reason: `must be an integer from 1 to ${MAX_QUANTITY}` }]);
  return value as number;
}
