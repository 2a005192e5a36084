import { Message, Part, Role, TaskState } from '@a2a-js/sdk';
import { AgentEvent, AgentExecutor, ExecutionEventBus, RequestContext } from '@a2a-js/sdk/server';
import { Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { A2aUser, ownerOf } from '../../a2a/hosting/a2a-user';
import { isDomainError } from '../../platform/errors/domain-error';
import { ErrorCode } from '../../platform/errors/error-code';
import { CartService, CartView, itemNotFound } from '../cart/cart.service';
import { CatalogRepository } from '../catalog/catalog.repository';
import { formatMinor, toItem } from '../catalog/product.view';
import { CheckoutService } from '../checkout/checkout.service';
import type { ProductEntity } from '../entities/product.entity';
import type { ShopSessionEntity } from '../entities/shop-session.entity';
import { ItemRef, parseShoppingData, parseShoppingText, ShoppingStep } from './shopping-request';
import { ShopperMemory } from './shopper-memory';

const SEARCH_LIMIT = 5;

/** What one step said, in words and as data. */
interface StepAnswer {
  text: string;
  data: Record<string, unknown>;
}

/** Where the cart of a conversation lives; made on the first step that needs it. */
interface Shopper {
  owner: string;
  contextId: string;
  httpBase?: string;
  session?: ShopSessionEntity;
  /** Set when the conversation's earlier cart had expired and a new one was started. */
  renewed?: boolean;
}

/**
 * The `commerce` agent: the shop in words. Each message becomes steps (parseShoppingText, or one
 * step from a data part) run in order against the same services as the agents.json API; the
 * answer is one message with the text for a human and a data part with each step's result. The
 * conversation (A2A contextId) keeps its shop session and the products last talked about, so
 * "add two to my cart" adds what was just found. Checkout hands a link to the human; the agent
 * never confirms an order.
 */
export class CommerceExecutor implements AgentExecutor {
  private readonly logger = new Logger('CommerceAgent');

  constructor(
    private readonly catalog: CatalogRepository,
    private readonly carts: CartService,
    private readonly checkouts: CheckoutService,
    private readonly memory: ShopperMemory,
    private readonly defaultHttpBase: () => string,
  ) {}

  async execute(request: RequestContext, bus: ExecutionEventBus): Promise<void> {
    try {
      const steps = stepsOf(request.userMessage);
      const user = request.context?.user as A2aUser | undefined;
      const shopper: Shopper = {
        owner: ownerOf(request.context),
        contextId: request.contextId,
        httpBase: user?.httpBase,
      };
      const answers: StepAnswer[] = [];
      for (const step of steps) {
        const answer = await this.run(step, shopper).catch((error: unknown) => clientMistake(error));
        answers.push(answer);
      }
      if (shopper.renewed)
        answers.unshift({ text: 'Your earlier cart had expired, so I started a new one.', data: { renewed: true } });
      bus.publish(AgentEvent.message(reply(request, answers)));
    } catch (error) {
      // A malformed data part is rejected; anything else (the database down) fails the turn.
      const rejected = isDomainError(error) && error.code === ErrorCode.VALIDATION_FAILED;
      const message = isDomainError(error) ? error.message : 'the shop could not answer';
      if (!isDomainError(error)) this.logger.error(`Commerce agent failed: ${(error as Error).message}`);
      bus.publish(
        AgentEvent.task({
          id: request.taskId,
          contextId: request.contextId,
          status: {
            state: rejected ? TaskState.TASK_STATE_REJECTED : TaskState.TASK_STATE_FAILED,
            message: reply(request, [{ text: `Sorry: ${message}`, data: { error: message } }], request.taskId),
            timestamp: new Date().toISOString(),
          },
          history: [request.userMessage],
          artifacts: [],
          metadata: undefined,
        }),
      );
    } finally {
      bus.finished();
    }
  }

  async cancelTask(): Promise<void> {
    // Every step is short and answers in one message: there is nothing running to cancel.
  }

  private async run(step: ShoppingStep, shopper: Shopper): Promise<StepAnswer> {
    switch (step.action) {
      case 'search':
        return this.search(step.query, step.limit ?? SEARCH_LIMIT, shopper);
      case 'details': {
        const product = await this.resolve(step.item, shopper);
        await this.memory.focus(shopper.owner, shopper.contextId, product.id);
        return { text: describe(product), data: { action: 'details', item: toItem(product) } };
      }
      case 'add_to_cart': {
        const product = await this.resolve(step.item, shopper);
        const session = await this.session(shopper, true);
        const added = await this.carts.add(session!, product.id, step.quantity);
        await this.memory.focus(shopper.owner, shopper.contextId, product.id);
        const cart = await this.carts.view(session!);
        return {
          text: `Added ${step.quantity} × ${product.name} to your cart (${added.quantity} in the cart now). ${cartLine(cart)}`,
          data: { action: 'add_to_cart', item_id: product.id, quantity: added.quantity, cart_size: added.cartSize },
        };
      }
      case 'remove_from_cart': {
        const product = await this.resolve(step.item, shopper);
        const session = await this.session(shopper, false);
        if (!session) return { text: 'Your cart is empty.', data: { action: 'remove_from_cart', removed: false } };
        await this.carts.remove(session, product.id);
        const cart = await this.carts.view(session);
        return {
          text: `Removed ${product.name} from your cart. ${cartLine(cart)}`,
          data: { action: 'remove_from_cart', item_id: product.id, removed: true },
        };
      }
      case 'view_cart': {
        const session = await this.session(shopper, false);
        const cart = session ? await this.carts.view(session) : undefined;
        if (!cart || cart.items.length === 0)
          return { text: 'Your cart is empty.', data: { action: 'view_cart', items: [], subtotal: 0 } };
        const lines = cart.items.map(
          (line) =>
            `- ${line.quantity} × ${line.name} (${line.item_id}): ${formatMinor(line.line_total, line.currency)} ${line.currency}`,
        );
        return { text: ['Your cart:', ...lines, cartLine(cart)].join('\n'), data: { action: 'view_cart', ...cart } };
      }
      case 'checkout':
        return this.checkout(shopper);
      case 'help':
        return this.help();
    }
  }

  private async search(query: string, limit: number, shopper: Shopper): Promise<StepAnswer> {
    const found = await this.catalog.search(query, limit);
    await this.memory.remember(
      shopper.owner,
      shopper.contextId,
      found.map((p) => p.id),
    );
    if (found.length === 0) {
      const help = await this.help();
      return {
        text: `I found nothing for "${query}". ${help.text}`,
        data: { action: 'search', query, results: [], categories: help.data.categories },
      };
    }
    const lines = found.map(
      (p, i) => `${i + 1}. ${p.name} - ${price(p)}${p.stock > 0 ? '' : ' (out of stock)'} (${p.id})`,
    );
    return {
      text: [`Found ${found.length} for "${query}":`, ...lines].join('\n'),
      data: { action: 'search', query, results: found.map(toItem) },
    };
  }

  private async checkout(shopper: Shopper): Promise<StepAnswer> {
    const session = await this.session(shopper, false);
    const cart = session ? await this.carts.view(session) : undefined;
    if (!session || !cart || cart.items.length === 0)
      return {
        text: 'Your cart is empty: add something before checking out.',
        data: { action: 'checkout', human_handoff: false },
      };
    const { url, expiresAt } = await this.checkouts.handoff(session, shopper.httpBase ?? this.defaultHttpBase());
    return {
      text:
        `Your cart is ready: ${cartLine(cart)} To place the order, open ${url} and confirm it there ` +
        `(the link works until ${expiresAt.toISOString()}). I can't complete the purchase for you.`,
      data: {
        action: 'checkout',
        checkout_url: url,
        handoff_url: url,
        human_handoff: true,
        expires_at: expiresAt.toISOString(),
      },
    };
  }

  private async help(): Promise<StepAnswer> {
    const categories = await this.catalog.categories();
    const list = categories.map((c) => c.category).join(', ');
    return {
      text:
        `I can search the shop, tell you about a product, add it to your cart, show your cart and give you a ` +
        `checkout link.${list ? ` The shop has: ${list}.` : ' The catalog is empty right now.'}`,
      data: { action: 'help', categories },
    };
  }

  /** The product a step names; for words, the best search hit. */
  private async resolve(item: ItemRef, shopper: Shopper): Promise<ProductEntity> {
    const byId = async (id: string) => {
      const product = await this.catalog.findById(id);
      if (!product) throw itemNotFound(id);
      return product;
    };
    switch (item.kind) {
      case 'id':
        return byId(item.id);
      case 'query': {
        const [best] = await this.catalog.search(item.query, 1);
        if (!best) throw new NotUnderstood(`I found no product matching "${item.query}".`);
        return best;
      }
      case 'position': {
        const { results } = await this.memory.recall(shopper.owner, shopper.contextId);
        const id = results[item.index];
        if (!id)
          throw new NotUnderstood(
            results.length
              ? `The last search found ${results.length} product${results.length === 1 ? '' : 's'}: there is no number ${item.index + 1}.`
              : 'Which product? Search first, or name it.',
          );
        return byId(id);
      }
      case 'current': {
        const { focus } = await this.memory.recall(shopper.owner, shopper.contextId);
        if (!focus) throw new NotUnderstood('Which product? Search first, or name it.');
        return byId(focus);
      }
    }
  }

  /** The conversation's live shop session; a new one when `create` and it has none (or it expired). */
  private async session(shopper: Shopper, create: boolean): Promise<ShopSessionEntity | undefined> {
    if (shopper.session) return shopper.session;
    const found = await this.memory.session(shopper.owner, shopper.contextId, create);
    shopper.session = found?.session;
    shopper.renewed ||= found?.renewed ?? false;
    return shopper.session;
  }
}

/** A request the agent understood but cannot carry out as asked: said to the user, not a failure. */
class NotUnderstood extends Error {}

/** Client mistakes (unknown item, too many, not in the cart, unclear words) answer in words; others fail the turn. */
function clientMistake(error: unknown): StepAnswer {
  if (error instanceof NotUnderstood) return { text: error.message, data: { error: error.message } };
  if (isDomainError(error) && (error.code === ErrorCode.NOT_FOUND || error.code === ErrorCode.VALIDATION_FAILED))
    return {
      text: /[.!?]$/.test(error.message) ? error.message : `${error.message}.`,
      data: { error: error.message, code: error.code },
    };
  throw error;
}

function stepsOf(message: Message): ShoppingStep[] {
  for (const part of message.parts) if (part.content?.$case === 'data') return [parseShoppingData(part.content.value)];
  const text = message.parts
    .map((part) => (part.content?.$case === 'text' ? part.content.value : ''))
    .join(' ')
    .trim();
  return parseShoppingText(text);
}

function price(product: ProductEntity): string {
  return `${formatMinor(product.priceMinor, product.currency)} ${product.currency}`;
}

function describe(product: ProductEntity): string {
  const stock = product.stock > 0 ? `${product.stock} in stock` : 'out of stock';
  return `${product.name} (${product.id}): ${price(product)}, ${stock}. ${product.description}`;
}

function cartLine(cart: CartView): string {
  const total =
    cart.subtotal !== null && cart.currency
      ? `${formatMinor(cart.subtotal, cart.currency)} ${cart.currency}`
      : Object.entries(cart.subtotals)
          .map(([currency, minor]) => `${formatMinor(minor, currency)} ${currency}`)
          .join(' + ');
  return `Cart: ${cart.item_count} item${cart.item_count === 1 ? '' : 's'}, subtotal ${total || '0'}.`;
}

function reply(request: RequestContext, answers: StepAnswer[], taskId = ''): Message {
  const parts: Part[] = [
    {
      content: { $case: 'text', value: answers.map((a) => a.text).join('\n\n') },
      metadata: undefined,
      filename: '',
      mediaType: 'text/plain',
    },
    {
      content: { $case: 'data', value: { steps: answers.map((a) => a.data) } },
      metadata: undefined,
      filename: '',
      mediaType: 'application/json',
    },
  ];
  return {
    messageId: randomUUID(),
    contextId: request.contextId,
    taskId,
    role: Role.ROLE_AGENT,
    parts,
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}
