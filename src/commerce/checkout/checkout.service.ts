import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource, Repository } from 'typeorm';
import { DomainError } from '../../platform/errors/domain-error';
import { CartService, CartView } from '../cart/cart.service';
import { OrderEntity } from '../entities/order.entity';
import type { ShopSessionEntity } from '../entities/shop-session.entity';
import { ShopSessionsService } from '../shop-sessions.service';

export const CHECKOUT_PAGE_PATH = 'shop/checkout';

export type CheckoutPage =
  | { state: 'open'; cart: CartView; expiresAt: Date }
  | { state: 'ordered'; order: OrderEntity }
  | { state: 'expired' }
  | { state: 'unknown' };

/**
 * The human handoff: an agent asks for a checkout link; the human opens it, reviews the cart and
 * confirms. Confirming records one order per session, however often it is pressed. The agent never
 * completes an order itself.
 */
@Injectable()
export class CheckoutService {
  private readonly orders: Repository<OrderEntity>;

  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    private readonly sessions: ShopSessionsService,
    private readonly carts: CartService,
  ) {
    this.orders = dataSource.getRepository(OrderEntity);
  }

  async handoff(session: ShopSessionEntity, base: string): Promise<{ url: string; expiresAt: Date }> {
    const cart = await this.carts.view(session);
    if (cart.items.length === 0)
      throw DomainError.validation(
        [{ field: 'cart', reason: 'is empty' }],
        'The cart is empty: add items before checkout',
      );
    const token = await this.sessions.issueCheckoutToken(session);
    return { url: `${base}/${CHECKOUT_PAGE_PATH}/${token}`, expiresAt: session.expiresAt };
  }

  async page(token: string): Promise<CheckoutPage> {
    return this.pageOf(await this.sessions.byCheckoutToken(token));
  }

  /** Records the order (once per session) from the cart as it is now. */
  async confirm(token: string): Promise<CheckoutPage> {
    const session = await this.sessions.byCheckoutToken(token);
    const page = await this.pageOf(session);
    if (page.state !== 'open' || !session) return page;
    const { cart } = page;
    if (cart.items.length === 0 || cart.currency === null) return page;
    await this.dataSource.query(
      `INSERT INTO orders (id, session_id, lines, subtotal_minor, currency, created_at)
       VALUES ($1, $2, $3::jsonb, $4, $5, now()) ON CONFLICT (session_id) DO NOTHING`,
      [randomUUID(), session.id, JSON.stringify(cart.items), cart.subtotal, cart.currency],
    );
    return this.pageOf(session);
  }

  private async pageOf(session: ShopSessionEntity | null): Promise<CheckoutPage> {
    if (!session) return { state: 'unknown' };
    // The link expires with the session, a confirmed one too: after that it shows no cart and no order.
    if (session.endedAt || session.expiresAt.getTime() <= Date.now()) return { state: 'expired' };
    const order = await this.orders.findOne({ where: { sessionId: session.id } });
    if (order) return { state: 'ordered', order };
    return { state: 'open', cart: await this.carts.view(session), expiresAt: session.expiresAt };
  }
}
