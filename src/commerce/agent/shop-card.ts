import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import type { AgentExecutor } from '@a2a-js/sdk/server';
import { AgentHost } from '../../a2a/hosting/agent-host';
import { CatalogRepository } from '../catalog/catalog.repository';
import { commerceProfile } from './commerce-agent.profile';

/** How often the card is checked against the catalog (an import may run in another process). */
const REFRESH_MS = 5 * 60_000;
/** Words on the card for what the catalog sells. */
const MAX_KINDS = 24;

/**
 * Hosts the shop's agent with a card that says what the catalog sells (see commerceProfile),
 * checked at start and every few minutes, and re-hosted only when that changed.
 */
@Injectable()
export class ShopCard implements OnModuleDestroy {
  private readonly logger = new Logger('Commerce');
  private executor?: AgentExecutor;
  /** What the hosted card says the catalog sells. */
  private described = '';
  private refresh?: NodeJS.Timeout;

  constructor(
    private readonly catalog: CatalogRepository,
    private readonly host: AgentHost,
  ) {}

  /** Hosts the shop at once, with a card that names no products yet. */
  hostAgent(executor: AgentExecutor): void {
    this.executor = executor;
    this.host.host({ profile: commerceProfile([]), executor });
  }

  /** Describes the catalog now, then every REFRESH_MS. */
  async follow(): Promise<void> {
    await this.describe();
    this.refresh ??= setInterval(() => void this.describe(), REFRESH_MS);
    this.refresh.unref();
  }

  /** Re-hosts the shop with a card naming what the catalog sells, when that changed. */
  async describe(): Promise<void> {
    try {
      const kinds = await this.catalog.kinds(MAX_KINDS);
      if (kinds.join() === this.described || !this.executor) return;
      this.host.host({ profile: commerceProfile(kinds), executor: this.executor });
      this.described = kinds.join();
    } catch (error) {
      this.logger.warn(`Could not read what the catalog sells for the shop's card: ${(error as Error).message}`);
    }
  }

  onModuleDestroy(): void {
    clearInterval(this.refresh);
  }
}
