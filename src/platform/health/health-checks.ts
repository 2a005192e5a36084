import { Injectable } from '@nestjs/common';
import { HealthIndicatorResult, HealthIndicatorService } from '@nestjs/terminus';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { KeyValueStore } from '../kv/key-value-store';
import { ShutdownService } from '../lifecycle/shutdown.service';

const CHECK_TIMEOUT_MS = 2_000;

/** The readiness indicators: database, key-value store (Redis or in-process), not draining. */
@Injectable()
export class HealthChecks {
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

  /** What readiness is made of (GET /health/ready, gRPC health): not draining, database, key-value store. */
  readiness(): (() => Promise<HealthIndicatorResult>)[] {
    return [() => this.accepting(), () => this.database(), () => this.keyValueStore()];
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
