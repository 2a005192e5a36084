import { Injectable } from '@nestjs/common';
import { HealthIndicatorResult, HealthIndicatorService } from '@nestjs/terminus';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { KeyValueStore } from '../kv/key-value-store';
import { ShutdownService } from '../lifecycle/shutdown.service';

const CHECK_TIMEOUT_MS = 2_000;
/**
 * The longest readiness waits for start-up work (warmUp), from when the checks were made: past it
 * the replica is ready anyway and serves without what is still warming up.
 */
export const WARM_UP_LIMIT_MS = 30_000;

/**
 * The readiness indicators: not draining, start-up work done (warmUp), database, key-value store
 * (Redis or in-process).
 */
@Injectable()
export class HealthChecks {
  /** Start-up work readiness waits for, by name, until it settles. */
  private readonly warming = new Set<string>();
  private readonly madeAt = Date.now();

  constructor(
    private readonly indicators: HealthIndicatorService,
    private readonly config: AppConfig,
    private readonly dataSource: DataSource,
    private readonly kv: KeyValueStore,
    private readonly shutdown: ShutdownService,
  ) {}

  async database(): Promise<HealthIndicatorResult> {
    const check = this.indicators.check('database');
    const mode = this.config.database.mode;
    try {
      await withTimeout(this.dataSource.query('SELECT 1'), 'database');
      return check.up({ mode });
    } catch (error) {
      return check.down({ mode, message: (error as Error).message });
    }
  }

  async keyValueStore(): Promise<HealthIndicatorResult> {
    const check = this.indicators.check('redis');
    if (this.kv.kind === 'in-process') return check.up({ mode: 'in-process', note: 'in-process, single replica' });
    try {
      await withTimeout(this.kv.ping(), 'redis');
      return check.up({ mode: 'redis' });
    } catch (error) {
      return check.down({ mode: 'redis', message: (error as Error).message });
    }
  }

  /** What readiness is made of (GET /health/ready, gRPC health): not draining, warmed up, database, key-value store. */
  readiness(): (() => Promise<HealthIndicatorResult>)[] {
    return [() => this.accepting(), () => this.warmedUp(), () => this.database(), () => this.keyValueStore()];
  }

  /**
   * Readiness waits for `work` - done once at start, which answers depend on (the router's model) -
   * to settle, however it ends, for at most WARM_UP_LIMIT_MS.
   */
  warmUp(name: string, work: Promise<unknown>): void {
    this.warming.add(name);
    void work.then(
      () => this.warming.delete(name),
      () => this.warming.delete(name),
    );
  }

  /** Down while start-up work is under way, naming it; up once it is done or has had WARM_UP_LIMIT_MS. */
  async warmedUp(): Promise<HealthIndicatorResult> {
    const check = this.indicators.check('startup');
    if (this.warming.size === 0) return check.up();
    const waiting = [...this.warming].join(', ');
    if (Date.now() - this.madeAt >= WARM_UP_LIMIT_MS)
      return check.up({ note: `serving before it finished: ${waiting}` });
    return check.down({ message: `starting: ${waiting}` });
  }

  async accepting(): Promise<HealthIndicatorResult> {
    const check = this.indicators.check('lifecycle');
    return this.shutdown.isDraining ? check.down({ message: 'shutting down' }) : check.up();
  }
}

async function withTimeout<T>(work: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      work,
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`${what} did not answer within ${CHECK_TIMEOUT_MS} ms`)),
          CHECK_TIMEOUT_MS,
        );
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}
