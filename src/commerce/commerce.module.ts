import { Logger, MiddlewareConsumer, Module, NestModule, OnApplicationBootstrap } from '@nestjs/common';
import { A2aModule } from '../a2a/a2a.module';
import { AppConfig } from '../platform/config/app-config';
import { RoutePolicies } from '../platform/http/route-policies';
import { CartService } from './cart/cart.service';
import { CatalogRepository } from './catalog/catalog.repository';
import { demoProducts } from './catalog/demo-catalog';
import { CheckoutPageController } from './checkout/checkout-page.controller';
import { CheckoutService } from './checkout/checkout.service';
import { ContactService } from './contact.service';
import { AgentsApiController } from './http/agents-api.controller';
import { isAgentsSite, writeAgentsError } from './http/agents-http';
import { AgentsManifestController } from './http/agents-manifest.controller';
import { AgentsSiteMiddleware } from './http/agents-site.middleware';
import { ShopSessionsService } from './shop-sessions.service';

/**
 * The agents.json shop: the manifest, the interaction API (catalog, sessions, carts, checkout
 * handoff, contact) and the human checkout page. The embedded quick start gets a demo catalog.
 */
@Module({
  imports: [A2aModule],
  controllers: [AgentsManifestController, AgentsApiController, CheckoutPageController],
  providers: [
    CatalogRepository,
    ShopSessionsService,
    CartService,
    CheckoutService,
    ContactService,
    AgentsSiteMiddleware,
  ],
})
export class CommerceModule implements NestModule, OnApplicationBootstrap {
  private readonly logger = new Logger('Commerce');

  constructor(
    routes: RoutePolicies,
    private readonly catalog: CatalogRepository,
    private readonly config: AppConfig,
  ) {
    routes.registerErrorWriter(isAgentsSite, writeAgentsError);
  }

  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(AgentsSiteMiddleware).forRoutes('*');
  }

  /** The embedded quick start sells something at once: a demo catalog when the catalog is empty. */
  async onApplicationBootstrap(): Promise<void> {
    if (this.config.database.mode !== 'embedded' || (await this.catalog.count()) > 0) return;
    await this.catalog.upsertAll(demoProducts());
    this.logger.log('Seeded the demo catalog (embedded database, empty catalog)');
  }
}
