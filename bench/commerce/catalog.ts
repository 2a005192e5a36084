/**
 * The generated catalog and the search queries, both deterministic: the same seed gives the same
 * products (in every process: the hub loads them, the plain server serves them, the benchmark
 * checks answers against them) and the same query mix.
 */
import { toItem } from '../../src/commerce/catalog/product.view';
import type { ProductEntity } from '../../src/commerce/entities/product.entity';

/** mulberry32: a small, fast, seedable PRNG (32-bit state); good enough to vary a catalog. */
export function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** 20 categories, 6 product nouns each (every noun in one category only). */
const CATEGORIES: Record<string, string[]> = {
  kitchen: ['mug', 'teapot', 'kettle', 'skillet', 'colander', 'spatula'],
  garden: ['planter', 'trowel', 'sprinkler', 'hose', 'birdhouse', 'pruner'],
  office: ['desk', 'organizer', 'bookend', 'whiteboard', 'footrest', 'clipboard'],
  bedroom: ['pillow', 'blanket', 'duvet', 'nightstand', 'quilt', 'headboard'],
  bathroom: ['towel', 'soapdish', 'bathmat', 'toothbrush', 'mirror', 'caddy'],
  lighting: ['lamp', 'lantern', 'sconce', 'pendant', 'nightlight', 'candle'],
  outdoor: ['hammock', 'tent', 'cooler', 'firepit', 'parasol', 'bench'],
  travel: ['backpack', 'suitcase', 'duffel', 'wallet', 'pouch', 'satchel'],
  fitness: ['dumbbell', 'kettlebell', 'roller', 'jumprope', 'bottle', 'armband'],
  toys: ['puzzle', 'kite', 'robot', 'spinner', 'train', 'dollhouse'],
  pets: ['leash', 'collar', 'kennel', 'scratcher', 'feeder', 'harness'],
  audio: ['speaker', 'headphone', 'turntable', 'radio', 'amplifier', 'soundbar'],
  storage: ['basket', 'crate', 'shelf', 'drawer', 'hamper', 'trunk'],
  decor: ['vase', 'frame', 'clock', 'rug', 'tapestry', 'sculpture'],
  tools: ['hammer', 'wrench', 'screwdriver', 'toolbox', 'saw', 'chisel'],
  stationery: ['notebook', 'pen', 'journal', 'planner', 'sketchbook', 'pencil'],
  apparel: ['scarf', 'beanie', 'jacket', 'sweater', 'apron', 'poncho'],
  footwear: ['slipper', 'sneaker', 'boot', 'sandal', 'clog', 'loafer'],
  baby: ['rattle', 'bib', 'crib', 'stroller', 'teether', 'swaddle'],
  pantry: ['jar', 'canister', 'breadbin', 'tin', 'grinder', 'spicerack'],
};
const CATEGORY_NAMES = Object.keys(CATEGORIES);

const ADJECTIVES = [
  'classic',
  'modern',
  'rustic',
  'compact',
  'deluxe',
  'portable',
  'ergonomic',
  'handmade',
  'lightweight',
  'sturdy',
  'elegant',
  'minimalist',
  'premium',
  'vintage',
  'foldable',
  'cozy',
  'sleek',
  'durable',
  'robust',
  'artisan',
  'nordic',
  'industrial',
  'everyday',
  'essential',
  'signature',
  'heritage',
  'urban',
  'coastal',
  'alpine',
  'studio',
];
const COLOURS = [
  'blue',
  'red',
  'green',
  'black',
  'white',
  'grey',
  'navy',
  'amber',
  'olive',
  'coral',
  'ivory',
  'teal',
  'charcoal',
  'mustard',
];
const MATERIALS = [
  'ceramic',
  'oak',
  'walnut',
  'bamboo',
  'steel',
  'cotton',
  'linen',
  'wool',
  'leather',
  'glass',
  'copper',
  'brass',
  'marble',
  'silicone',
  'cork',
  'canvas',
  'velvet',
  'porcelain',
  'cedar',
  'titanium',
  'aluminium',
  'stoneware',
  'hemp',
  'rattan',
];
const SUFFIXES = ['', '', '', '', 'Mini', 'XL', 'Pro', 'Duo', 'Plus', 'Set'];
const FEATURES = [
  'hand finished',
  'built to last',
  'easy to clean',
  'made in small batches',
  'designed in Copenhagen',
  'tested for daily use',
  'sustainably sourced',
  'gift boxed',
  'backed by a five year warranty',
  'shipped plastic free',
  'finished with natural oils',
  'stitched by hand',
];
const USES = [
  'Ideal for small flats.',
  'Great on camping trips.',
  'A thoughtful gift for new homeowners.',
  'Perfect for everyday use.',
  'Made for busy mornings.',
  'Looks good in any room.',
  'A favourite of our customers since launch.',
  'Pairs well with the rest of the range.',
  'Sized for children and grown ups alike.',
  'Quiet, simple and reliable.',
];
const CARE = [
  'Wipe with a damp cloth.',
  'Machine washable at thirty degrees.',
  'Dishwasher safe.',
  'Keep away from direct heat.',
  'Store in a dry place.',
  '',
];
const CURRENCIES = ['USD', 'USD', 'USD', 'USD', 'EUR', 'EUR', 'GBP', 'JPY'];

const pick = <T>(random: () => number, list: readonly T[]): T => list[Math.floor(random() * list.length)];
const title = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

export function productId(index: number): string {
  return `prod_b${String(index).padStart(6, '0')}`;
}

/**
 * `count` products, as the catalog import would hand them to CatalogRepository.upsertAll: names
 * "<adjective> [<colour>] <material> <noun> [<suffix>]", two-sentence descriptions, 20 categories,
 * prices in integer minor units, stock (some sold out), a few attributes. `createdAt` is fixed so
 * that every process builds the same objects.
 */
export function generateCatalog(count: number, seed: number): ProductEntity[] {
  const random = prng(seed);
  const createdAt = new Date('2026-01-01T00:00:00Z');
  const products: ProductEntity[] = [];
  for (let i = 1; i <= count; i++) {
    const category = pick(random, CATEGORY_NAMES);
    const noun = pick(random, CATEGORIES[category]);
    const adjective = pick(random, ADJECTIVES);
    const colour = random() < 0.5 ? pick(random, COLOURS) : undefined;
    const material = pick(random, MATERIALS);
    const suffix = pick(random, SUFFIXES);
    const name = [adjective, colour, material, noun, suffix]
      .filter((word): word is string => Boolean(word))
      .map(title)
      .join(' ');
    const otherAdjective = pick(random, ADJECTIVES);
    const otherColour = pick(random, COLOURS);
    const [feature1, feature2] = [pick(random, FEATURES), pick(random, FEATURES)];
    const weight = 50 + Math.floor(random() * 4_950);
    const description = [
      `${/^[aeiou]/.test(otherAdjective) ? 'An' : 'A'} ${otherAdjective} ${noun} in ${colour ?? otherColour} ${material}, ${feature1}${feature2 === feature1 ? '' : ` and ${feature2}`}.`,
      pick(random, USES),
      `Weighs ${weight} g.`,
      pick(random, CARE),
    ]
      .filter(Boolean)
      .join(' ');
    const currency = pick(random, CURRENCIES);
    const major = 3 + Math.floor(random() ** 2 * 400);
    const priceMinor = currency === 'JPY' ? major * 150 : major * 100 + pick(random, [0, 49, 95, 99]);
    const stock = random() < 0.08 ? 0 : Math.floor(random() * 500);
    // jsonb keeps keys ordered by length, then bytes: built in that order, the stored object
    // serializes exactly as generated.
    const attributes: Record<string, unknown> = { sku: `SB-${(i * 7_919).toString(36).toUpperCase()}` };
    if (colour) attributes.color = colour;
    attributes.material = material;
    attributes.weight_g = weight;
    products.push({
      id: productId(i),
      name,
      description,
      priceMinor,
      currency,
      category,
      stock,
      attributes,
      createdAt,
    });
  }
  return products;
}

/** The exact body `GET …/detail/:id` answers: the envelope around the item, as JSON.stringify writes it. */
export function detailBody(product: ProductEntity): string {
  return JSON.stringify({ ok: true, data: toItem(product) });
}

/** `toItem(product)` as JSON: what one search result must serialize to. */
export function itemJson(product: ProductEntity): string {
  return JSON.stringify(toItem(product));
}

export type QueryKind = 'word' | 'plural' | 'two words' | 'prefix' | 'fallback' | 'no hits';

export interface SearchQuery {
  q: string;
  kind: QueryKind;
  /**
   * One word prefix per term that the stemmed prefix query matches in this vocabulary ("mugs" is
   * stemmed to "mug" and searched as mug:*): a product matches a term when a word of its name,
   * category or description starts with the prefix. Empty: the query must find nothing.
   */
  prefixes: string[];
}

/**
 * The query mix, sent in turn: mostly single words and two-word queries, some plurals and
 * partial words (typed as the user types), one typo that only the any-word fallback rescues, and
 * a few with no hits at all (for which the repository runs both of its queries). The kinds are
 * for the report; what a query must find follows from the catalog (answers.ts).
 */
export const QUERIES: SearchQuery[] = [
  { q: 'mug', kind: 'word', prefixes: ['mug'] },
  { q: 'lantern', kind: 'word', prefixes: ['lantern'] },
  { q: 'backpack', kind: 'word', prefixes: ['backpack'] },
  { q: 'walnut', kind: 'word', prefixes: ['walnut'] },
  { q: 'teal', kind: 'word', prefixes: ['teal'] },
  { q: 'garden', kind: 'word', prefixes: ['garden'] },
  { q: 'rustic', kind: 'word', prefixes: ['rustic'] },
  { q: 'headphone', kind: 'word', prefixes: ['headphone'] },
  { q: 'Kettle', kind: 'word', prefixes: ['kettl'] },
  { q: 'mugs', kind: 'plural', prefixes: ['mug'] },
  { q: 'lanterns', kind: 'plural', prefixes: ['lantern'] },
  { q: 'towels', kind: 'plural', prefixes: ['towel'] },
  { q: 'boots', kind: 'plural', prefixes: ['boot'] },
  { q: 'speakers', kind: 'plural', prefixes: ['speaker'] },
  { q: 'blue mug', kind: 'two words', prefixes: ['blue', 'mug'] },
  { q: 'walnut desk', kind: 'two words', prefixes: ['walnut', 'desk'] },
  { q: 'leather wallet', kind: 'two words', prefixes: ['leather', 'wallet'] },
  { q: 'copper kettles', kind: 'two words', prefixes: ['copper', 'kettl'] },
  { q: 'wool blanket', kind: 'two words', prefixes: ['wool', 'blanket'] },
  { q: 'vintage lamp', kind: 'two words', prefixes: ['vintage', 'lamp'] },
  { q: 'lant', kind: 'prefix', prefixes: ['lant'] },
  { q: 'ceram', kind: 'prefix', prefixes: ['ceram'] },
  { q: 'headph', kind: 'prefix', prefixes: ['headph'] },
  { q: 'bamb', kind: 'prefix', prefixes: ['bamb'] },
  { q: 'walnut kettl', kind: 'prefix', prefixes: ['walnut', 'kettl'] },
  { q: 'walnut xqzt', kind: 'fallback', prefixes: ['walnut', 'xqzt'] },
  { q: 'zyxwv', kind: 'no hits', prefixes: [] },
  { q: 'quokka plinth', kind: 'no hits', prefixes: [] },
];

/** The words of a product's searchable text (name, category, description), lower case. */
export function wordsOf(product: ProductEntity): string[] {
  return `${product.name} ${product.category} ${product.description}`.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** Whether a product's words match all (else any) of the prefixes. */
export function matches(prefixes: string[], all: boolean, words: string[]): boolean {
  if (prefixes.length === 0) return false;
  const hit = (prefix: string) => words.some((word) => word.startsWith(prefix));
  return all ? prefixes.every(hit) : prefixes.some(hit);
}
