import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  Patch,
  Post,
  Put,
  Query,
  Req,
  UseInterceptors,
} from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request } from 'express';
import { HubEndpointsResolver } from '../../a2a/card/hub-endpoints';
import { Public } from '../../platform/auth/auth.decorators';
import { validateInput } from '../../platform/validation/validate-input';
import { CartService, itemNotFound } from '../cart/cart.service';
import { CatalogRepository } from '../catalog/catalog.repository';
import { toItem } from '../catalog/product.view';
import { CheckoutService } from '../checkout/checkout.service';
import { ContactService } from '../contact.service';
import { ShopSessionsService } from '../shop-sessions.service';
import { BrowseQueryDto, CartAddDto, CartItemDto, CartUpdateDto, ContactDto, SearchQueryDto } from './agents-api.dto';
import { AGENTS_API_BASE, CAPABILITIES, routeOf, SESSION_PATH } from './agents-api.routes';
import { AgentsEnvelopeInterceptor } from './agents-envelope.interceptor';
import { sessionTokenOf } from './agents-http';

/**
 * The agents.json interaction API (public; sessions by token). Answers are `{ok, data}`; errors
 * `{ok: false, error}` (see agents-http.ts); routes come from agents-api.routes.ts.
 */
@Public()
@ApiExcludeController()
@UseInterceptors(AgentsEnvelopeInterceptor)
@Controller(AGENTS_API_BASE)
export class AgentsApiController {
  constructor(
    private readonly catalog: CatalogRepository,
    private readonly sessions: ShopSessionsService,
    private readonly carts: CartService,
    private readonly checkouts: CheckoutService,
    private readonly contacts: ContactService,
    private readonly endpoints: HubEndpointsResolver,
  ) {}

  @Get(routeOf('search'))
  async search(@Query() query: SearchQueryDto) {
    return (await this.catalog.search(query.q, query.limit ?? 10)).map(toItem);
  }

  @Get(routeOf('browse'))
  async browse(@Query() query: BrowseQueryDto) {
    const limit = query.limit ?? 20;
    const page = query.page ?? 1;
    const { items, total } = await this.catalog.browse(query.category, limit, (page - 1) * limit);
    return { items: items.map(toItem), total, page, limit };
  }

  @Get(routeOf('detail'))
  async detail(@Param('id') id: string) {
    const product = await this.catalog.findById(id);
    if (!product) throw itemNotFound(id);
    return toItem(product);
  }

  @Post(SESSION_PATH)
  @HttpCode(201)
  async createSession() {
    const { token, session } = await this.sessions.create();
    return {
      session_token: token,
      expires_at: session.expiresAt.toISOString(),
      ttl_seconds: this.sessions.ttlSeconds,
      capabilities: CAPABILITIES.map((c) => c.name),
    };
  }

  @Delete(SESSION_PATH)
  async endSession(@Req() req: Request) {
    await this.sessions.end(await this.sessions.require(sessionTokenOf(req)));
    return { ended: true };
  }

  @Post(routeOf('cart.add'))
  @HttpCode(201)
  async add(@Req() req: Request, @Body() body: CartAddDto) {
    const session = await this.sessions.require(sessionTokenOf(req));
    const { quantity, cartSize } = await this.carts.add(session, body.item_id, body.quantity);
    return { item_id: body.item_id, quantity, cart_size: cartSize };
  }

  @Get(routeOf('cart.view'))
  async view(@Req() req: Request) {
    return this.carts.view(await this.sessions.require(sessionTokenOf(req)));
  }

  @Put(routeOf('cart.update'))
  async update(@Req() req: Request, @Body() body: CartUpdateDto) {
    const session = await this.sessions.require(sessionTokenOf(req));
    await this.carts.update(session, body.item_id, body.quantity);
    return { item_id: body.item_id, quantity: body.quantity };
  }

  /** The same as PUT (what the manifest declares): the reference client's cartUpdate sends PATCH. */
  @Patch(routeOf('cart.update'))
  async updateByPatch(@Req() req: Request, @Body() body: CartUpdateDto) {
    return this.update(req, body);
  }

  /** The item id in a JSON body or, as some clients send DELETE, in the query string. */
  @Delete(routeOf('cart.remove'))
  async remove(@Req() req: Request, @Query('item_id') fromQuery?: string) {
    const session = await this.sessions.require(sessionTokenOf(req));
    const body = req.body as Record<string, unknown> | undefined;
    const { item_id } = validateInput(CartItemDto, { item_id: body?.item_id ?? fromQuery });
    await this.carts.remove(session, item_id);
    return { item_id, removed: true };
  }

  @Post(routeOf('checkout'))
  @HttpCode(200)
  async checkout(@Req() req: Request) {
    const session = await this.sessions.require(sessionTokenOf(req));
    const { url, expiresAt } = await this.checkouts.handoff(session, this.endpoints.httpBaseOf(req));
    return { checkout_url: url, handoff_url: url, human_handoff: true, expires_at: expiresAt.toISOString() };
  }

  @Post(routeOf('contact'))
  @HttpCode(200)
  async contact(@Req() req: Request, @Body() body: ContactDto) {
    const session = await this.sessions.optional(sessionTokenOf(req));
    await this.contacts.send({ name: body.name, email: body.email, message: body.message }, session?.id);
    return { sent: true };
  }
}
