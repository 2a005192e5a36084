import { Controller, Get, Header, HttpCode, Param, Post, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { Public } from '../../platform/auth/auth.decorators';
import { formatMinor } from '../catalog/product.view';
import { CHECKOUT_PAGE_PATH, CheckoutPage, CheckoutService } from './checkout.service';

/**
 * The page a human opens from an agent's checkout link: the cart and a confirm button. Plain,
 * accessible HTML; no JavaScript needed. The link's token is the only credential.
 */
@Public()
@ApiExcludeController()
@Controller(CHECKOUT_PAGE_PATH)
export class CheckoutPageController {
  constructor(private readonly checkouts: CheckoutService) {}

  @Get(':token')
  @Header('Content-Type', 'text/html; charset=utf-8')
  @Header('Cache-Control', 'no-store')
  @Header('Referrer-Policy', 'no-referrer')
  async show(@Param('token') token: string, @Res({ passthrough: true }) res: Response): Promise<string> {
    const page = await this.checkouts.page(token);
    res.status(statusOf(page));
    return render(page, token);
  }

  @Post(':token/confirm')
  @HttpCode(200)
  @Header('Content-Type', 'text/html; charset=utf-8')
  @Header('Cache-Control', 'no-store')
  @Header('Referrer-Policy', 'no-referrer')
  async confirm(@Param('token') token: string, @Res({ passthrough: true }) res: Response): Promise<string> {
    const page = await this.checkouts.confirm(token);
    res.status(statusOf(page));
    return render(page, token);
  }
}

function statusOf(page: CheckoutPage): number {
  return page.state === 'unknown' ? 404 : page.state === 'expired' ? 410 : 200;
}

function render(page: CheckoutPage, token: string): string {
  switch (page.state) {
    case 'unknown':
      return layout('Checkout link not found', '<p>This checkout link is not valid. Ask your agent for a new one.</p>');
    case 'expired':
      return layout('Checkout link expired', '<p>This shopping session has ended. Ask your agent to start again.</p>');
    case 'ordered': {
      const { order } = page;
      return layout(
        'Order confirmed',
        `<p role="status">Thank you. Your order <strong>${escape(order.id)}</strong> is recorded.</p>` +
          table(order.lines, order.subtotalMinor, order.currency),
      );
    }
    case 'open': {
      const { cart } = page;
      if (cart.items.length === 0) return layout('Your cart is empty', '<p>There is nothing to confirm.</p>');
      return layout(
        'Review your order',
        `<p>Your agent prepared this cart. Check it and confirm to place the order.</p>` +
          table(cart.items, cart.subtotal, cart.currency) +
          `<form method="post" action="/${CHECKOUT_PAGE_PATH}/${encodeURIComponent(token)}/confirm">` +
          `<button type="submit">Confirm order</button></form>` +
          `<p><small>This link expires at ${escape(page.expiresAt.toISOString())}.</small></p>`,
      );
    }
  }
}

function table(
  lines: { name: string; quantity: number; unit_price: number; line_total: number; currency: string }[],
  subtotal: number | null,
  currency: string | null,
): string {
  const rows = lines
    .map(
      (line) =>
        `<tr><td>${escape(line.name)}</td><td>${line.quantity}</td>` +
        `<td>${formatMinor(line.unit_price, line.currency)} ${escape(line.currency)}</td>` +
        `<td>${formatMinor(line.line_total, line.currency)} ${escape(line.currency)}</td></tr>`,
    )
    .join('');
  const total =
    subtotal !== null && currency
      ? `${formatMinor(subtotal, currency)} ${escape(currency)}`
      : 'see the lines (several currencies)';
  return (
    '<table><caption>Order lines</caption><thead><tr><th scope="col">Item</th><th scope="col">Quantity</th>' +
    '<th scope="col">Price</th><th scope="col">Line total</th></tr></thead>' +
    `<tbody>${rows}</tbody><tfoot><tr><th scope="row" colspan="3">Total</th><td>${total}</td></tr></tfoot></table>`
  );
}

function layout(title: string, body: string): string {
  return (
    '<!doctype html><html lang="en"><head><meta charset="utf-8">' +
    '<meta name="viewport" content="width=device-width, initial-scale=1">' +
    `<title>${escape(title)}</title>` +
    '<style>body{font-family:system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem;line-height:1.5}' +
    'table{border-collapse:collapse;width:100%}th,td{border-bottom:1px solid #ccc;padding:.4rem;text-align:left}' +
    'button{font-size:1.1rem;padding:.6rem 1.2rem;margin-top:1rem}</style></head>' +
    `<body><main><h1>${escape(title)}</h1>${body}</main></body></html>`
  );
}

function escape(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
