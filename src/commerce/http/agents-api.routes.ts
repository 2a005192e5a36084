/**
 * The agents.json interaction API: its paths, once. The controller's routes and the manifest's
 * endpoints both come from here.
 */
export const AGENTS_API_BASE = '.well-known/agents/api';

export interface CapabilityRoute {
  name: string;
  description: string;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Relative to AGENTS_API_BASE; `:id` style parameters. */
  path: string;
  params: Record<
    string,
    { type: 'string' | 'integer'; required: boolean; description: string; in: 'query' | 'path' | 'body' }
  >;
  requiresSession: boolean;
  humanHandoff: boolean;
}

export const CAPABILITIES: CapabilityRoute[] = [
  {
    name: 'search',
    description: 'Search the catalog by keywords; results ranked by relevance.',
    method: 'GET',
    path: 'search',
    params: {
      q: { type: 'string', required: true, description: 'Search words', in: 'query' },
      limit: {
        type: 'integer',
        required: false,
        description: 'At most this many results (1-100, default 10)',
        in: 'query',
      },
    },
    requiresSession: false,
    humanHandoff: false,
  },
  {
    name: 'browse',
    description: 'List the catalog, optionally one category, a page at a time.',
    method: 'GET',
    path: 'browse',
    params: {
      page: { type: 'integer', required: false, description: 'Page number from 1', in: 'query' },
      limit: { type: 'integer', required: false, description: 'Items per page (1-100, default 20)', in: 'query' },
      category: { type: 'string', required: false, description: 'Only this category', in: 'query' },
    },
    requiresSession: false,
    humanHandoff: false,
  },
  {
    name: 'detail',
    description: 'One item: name, description, price (minor units), stock, attributes.',
    method: 'GET',
    path: 'detail/:id',
    params: { id: { type: 'string', required: true, description: 'Item id (prod_…)', in: 'path' } },
    requiresSession: false,
    humanHandoff: false,
  },
  {
    name: 'cart.add',
    description: 'Add an item to the session cart; price and name come from the catalog.',
    method: 'POST',
    path: 'cart/add',
    params: {
      item_id: { type: 'string', required: true, description: 'Item id', in: 'body' },
      quantity: {
        type: 'integer',
        required: true,
        description: 'How many (at least 1, at most the stock)',
        in: 'body',
      },
    },
    requiresSession: true,
    humanHandoff: false,
  },
  {
    name: 'cart.view',
    description: 'The session cart: lines and subtotal (minor units).',
    method: 'GET',
    path: 'cart/view',
    params: {},
    requiresSession: true,
    humanHandoff: false,
  },
  {
    name: 'cart.update',
    description: "Set an item's quantity in the cart (0 removes it).",
    method: 'PUT',
    path: 'cart/update',
    params: {
      item_id: { type: 'string', required: true, description: 'Item id', in: 'body' },
      quantity: { type: 'integer', required: true, description: 'New quantity', in: 'body' },
    },
    requiresSession: true,
    humanHandoff: false,
  },
  {
    name: 'cart.remove',
    description: 'Remove an item from the cart.',
    method: 'DELETE',
    path: 'cart/remove',
    params: { item_id: { type: 'string', required: true, description: 'Item id (JSON body or query)', in: 'body' } },
    requiresSession: true,
    humanHandoff: false,
  },
  {
    name: 'checkout',
    description: 'Hand the cart to a human: returns a checkout page URL for them to review and confirm.',
    method: 'POST',
    path: 'checkout',
    params: {},
    requiresSession: true,
    humanHandoff: true,
  },
  {
    name: 'contact',
    description: 'Send a message to the shop.',
    method: 'POST',
    path: 'contact',
    params: {
      name: { type: 'string', required: true, description: 'Your name', in: 'body' },
      email: { type: 'string', required: true, description: 'Reply address', in: 'body' },
      message: { type: 'string', required: true, description: 'The message', in: 'body' },
    },
    requiresSession: false,
    humanHandoff: false,
  },
];

export const SESSION_PATH = 'session';

/** The route path of a capability, for the controller's decorators. */
export function routeOf(name: string): string {
  const capability = CAPABILITIES.find((c) => c.name === name);
  if (!capability) throw new Error(`Unknown agents.json capability ${name}`);
  return capability.path;
}
