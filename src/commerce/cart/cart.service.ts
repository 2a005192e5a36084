import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { returned } from '../../platform/database/returned-rows';
import { DomainError } from '../../platform/errors/domain-error';
import { ErrorCode } from '../../platform/errors/error-code';
import { CatalogRepository } from '../catalog/catalog.repository';
import type { OrderLine } from '../entities/order.entity';
import type { ShopSessionEntity } from '../entities/shop-session.entity';

export interface CartView {
  items: OrderLine[];
  /** Minor units, when every line has one currency (else null, see `subtotals`). */
  subtotal: number | null;
  currency: string | null;
  subtotals: Record<string, number>;
  item_count: number;
}

/**
 * A session's cart in Postgres. Adding is one atomic upsert bounded by stock, so concurrent adds
 * lose nothing and never exceed what is in stock. Prices and names always come from the catalog.
 */
@Injectable()
export class CartService {
  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    private readonly catalog: CatalogRepository,
  ) {}

  async add(
    session: ShopSessionEntity,
    itemId: string,
    quantity: number,
  ): Promise<{ quantity: number; cartSize: number }> {
    const product = await this.catalog.findById(itemId);
    if (!product) throw itemNotFound(itemId);
    if (quantity > product.stock) throw tooMany(product.stock);
    const rows = returned<{ quantity: number }>(
      await this.dataSource.query(
        `INSERT INTO cart_lines (session_id, product_id, quantity, added_at) VALUES ($1, $2, $3, now())
         ON CONFLICT (session_id, product_id) DO UPDATE SET quantity = cart_lines.quantity + EXCLUDED.quantity
           WHERE cart_lines.quantity + EXCLUDED.quantity <= (SELECT stock FROM products WHERE id = $2)
         RETURNING quantity`,
        [session.id, itemId, quantity],
      ),
    );
    if (rows.length === 0) throw tooMany(product.stock, 'with what is already in the cart');
    return { quantity: rows[0].quantity, cartSize: await this.size(session) };
  }

  /** Sets the line's quantity; 0 removes the line. */
  async update(session: ShopSessionEntity, itemId: string, quantity: number): Promise<void> {
    if (quantity === 0) return this.remove(session, itemId);
    const product = await this.catalog.findById(itemId);
    if (!product) throw itemNotFound(itemId);
    if (quantity > product.stock) throw tooMany(product.stock);
    const rows = returned<unknown>(
      await this.dataSource.query(
        `UPDATE cart_lines SET quantity = $3 WHERE session_id = $1 AND product_id = $2 RETURNING quantity`,
        [session.id, itemId, quantity],
      ),
    );
    if (rows.length === 0) throw notInCart(itemId);
  }

  async remove(session: ShopSessionEntity, itemId: string): Promise<void> {
    const rows = returned<unknown>(
      await this.dataSource.query(
        `DELETE FROM cart_lines WHERE session_id = $1 AND product_id = $2 RETURNING product_id`,
        [session.id, itemId],
      ),
    );
    if (rows.length === 0) throw notInCart(itemId);
  }

  async view(session: ShopSessionEntity): Promise<CartView> {
    const rows: { product_id: string; quantity: number; name: string; price_minor: string; currency: string }[] =
      await this.dataSource.query(
        `SELECT l.product_id, l.quantity, p.name, p.price_minor, p.currency
           FROM cart_lines l JOIN products p ON p.id = l.product_id
          WHERE l.session_id = $1 ORDER BY l.added_at, l.product_id`,
        [session.id],
      );
    const items: OrderLine[] = rows.map((row) => ({
      item_id: row.product_id,
      name: row.name,
      quantity: row.quantity,
      unit_price: Number(row.price_minor),
      line_total: Number(row.price_minor) * row.quantity,
      currency: row.currency,
    }));
    const subtotals: Record<string, number> = {};
    for (const item of items) subtotals[item.currency] = (subtotals[item.currency] ?? 0) + item.line_total;
    const currencies = Object.keys(subtotals);
    return {
      items,
      subtotal: currencies.length <= 1 ? (subtotals[currencies[0]] ?? 0) : null,
      currency: currencies.length === 1 ? currencies[0] : null,
      subtotals,
      item_count: items.reduce((sum, item) => sum + item.quantity, 0),
    };
  }

  private async size(session: ShopSessionEntity): Promise<number> {
    const [row]: { total: string | null }[] = await this.dataSource.query(
      `SELECT sum(quantity) AS total FROM cart_lines WHERE session_id = $1`,
      [session.id],
    );
    return Number(row?.total ?? 0);
  }
}

export function itemNotFound(id: string): DomainError {
  return new DomainError(ErrorCode.NOT_FOUND, `Item not found: ${id}`, { details: { item_id: id } });
}

function notInCart(id: string): DomainError {
  return new DomainError(ErrorCode.NOT_FOUND, `Item ${id} is not in the cart`, { details: { item_id: id } });
}

function tooMany(stock: number, context = ''): DomainError {
  return DomainError.validation(
    [{ field: 'quantity', reason: `exceeds the stock of ${stock}${context ? ` ${context}` : ''}` }],
    `quantity: only ${stock} in stock${context ? ` (${context})` : ''}`,
  );
}
