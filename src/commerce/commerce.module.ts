import { Logger, MiddlewareConsumer, Module, NestModule, OnApplicationBootstrap, OnModuleInit } from '@nestjs/common';
import { A2aModule } from '../a2a/a2a.module';
import { HubEndpointsResolver } from '../a2a/card/hub-endpoints';
import { AppConfig } from '../platform/config/app-config';
import { RoutePolicies } from '../platform/http/route-policies';
import { CommerceExecutor } from './agent/commerce.executor';
import { ShopCard } from './agent/shop-card';
import { ShopperMemory } from './agent/shopper-memory';
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
 * handoff, contact), the human checkout page, and the `commerce` A2A agent that shops in words.
 * The embedded quick start gets a demo catalog.
 */
@Module({
  imports: [A2aModule],
  controllers: [AgentsManifestController, AgentsApiController, CheckoutPageController],
  providers: [
    CatalogRepository,
    ShopCard,
    ShopSessionsService,
    CartService,
    CheckoutService,
    ContactService,
    AgentsSiteMiddleware,
    ShopperMemory,
  ],
})
export class CommerceModule implements NestModule, OnModuleInit, OnApplicationBootstrap {
  private readonly logger = new Logger('Commerce');

  constructor(
    routes: RoutePolicies,
    private readonly catalog: CatalogRepository,
    private readonly config: AppConfig,
    private readonly card: ShopCard,
    private readonly carts: CartService,
    private readonly checkouts: CheckoutService,
    private readonly memory: ShopperMemory,
    private readonly endpoints: HubEndpointsResolver,
  ) {
    routes.registerErrorWriter(isAgentsSite, writeAgentsError);
  }

  onModuleInit(): void {
    this.card.hostAgent(
      new CommerceExecutor(
        this.catalog,
        this.carts,
        this.checkouts,
        this.memory,
        () => this.endpoints.configured().httpBase,
      ),
    );
  }

  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(AgentsSiteMiddleware).forRoutes('*');
  }

  /**
   * The embedded quick start sells something at once: a demo catalog when the catalog is empty.
   * Then the shop's card says what the catalog sells, and says it again when an import (`npm run
   * catalog`, another process) changes that.
   */
  async onApplicationBootstrap(): Promise<void> {
    if (this.config.database.mode === 'embedded' && (await this.catalog.count()) === 0) {
      await this.catalog.upsertAll(demoProducts());
      this.logger.log('Seeded the demo catalog (embedded database, empty catalog)');
    }
    await this.card.follow();
  }
}
