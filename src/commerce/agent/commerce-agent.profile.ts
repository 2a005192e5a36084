import type { AgentProfile, AgentSkillProfile } from '../../a2a/agent-profile';

export const COMMERCE_AGENT_ID = 'commerce';

const MODES = ['text/plain', 'application/json'];

function skill(id: string, name: string, description: string, tags: string[], examples: string[]): AgentSkillProfile {
  return { id, name, description, tags, examples, inputModes: MODES, outputModes: MODES };
}

/**
 * The shop's own A2A agent: the agents.json shop in words, for the orchestrator and any A2A
 * client. Text in English, or a data part naming a skill as `action`.
 */
export const COMMERCE_PROFILE: AgentProfile = {
  id: COMMERCE_AGENT_ID,
  name: 'Shop',
  description:
    'Shops the catalog for you: searches products, tells their details and prices, adds them to your ' +
    'cart, shows the cart and hands checkout to you with a link - it never places an order itself. ' +
    'Send words ("find me a blue mug and add two to my cart") or a data part such as ' +
    '{"action": "add_to_cart", "item_id": "prod_…", "quantity": 2}.',
  version: '1.0.0',
  kind: 'local',
  skills: [
    skill(
      'search',
      'Search products',
      'Full-text search of the catalog; answers the best matches with prices and ids. Data: {"action": "search", "query": "…", "limit"?: 1-20}.',
      ['shop', 'shopping', 'store', 'product', 'catalog', 'search', 'find', 'buy', 'price'],
      ['find me a blue mug', 'do you have green tea?', 'show me headphones'],
    ),
    skill(
      'details',
      'Product details',
      'The description, price, stock and attributes of one product (by id, by its place in the last results, or by name). Data: {"action": "details", "item_id": "…"}.',
      ['product', 'details', 'price', 'stock'],
      ['tell me more about the kettle', 'how much is the second one?'],
    ),
    skill(
      'add_to_cart',
      'Add to cart',
      'Adds a quantity of a product to your cart (bounded by stock). Data: {"action": "add_to_cart", "item_id": "…", "quantity"?: 1-999}.',
      ['cart', 'basket', 'add', 'buy', 'order'],
      ['add two to my cart', 'put 3 fountain pens in my basket'],
    ),
    skill(
      'remove_from_cart',
      'Remove from cart',
      'Takes a product out of your cart. Data: {"action": "remove_from_cart", "item_id": "…"}.',
      ['cart', 'basket', 'remove'],
      ['remove the teapot from my cart'],
    ),
    skill(
      'view_cart',
      'View cart',
      'The lines, quantities and subtotal of your cart. Data: {"action": "view_cart"}.',
      ['cart', 'basket', 'subtotal'],
      ["what's in my cart?"],
    ),
    skill(
      'checkout',
      'Checkout',
      'A checkout link for you (the human) to review and confirm the order; the agent never completes it. Data: {"action": "checkout"}.',
      ['checkout', 'check out', 'pay', 'order', 'purchase'],
      ['check out', "I'm ready to pay"],
    ),
  ],
  defaultInputModes: MODES,
  defaultOutputModes: MODES,
};

/**
 * The shop's card, saying what its catalog sells (`kinds`, see CatalogRepository.kinds): a card
 * that only says "products" leaves the orchestrator to guess whether "buy a kettle" is the shop's.
 */
export function commerceProfile(kinds: readonly string[]): AgentProfile {
  if (kinds.length === 0) return COMMERCE_PROFILE;
  return {
    ...COMMERCE_PROFILE,
    description: `${COMMERCE_PROFILE.description} It sells, among others: ${kinds.join(', ')}.`,
  };
}
