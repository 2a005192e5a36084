import { Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { AppConfig } from '../config/app-config';
import { redactUrl } from '../logging/redact-url';
import { dataSourceOptions } from './data-source-options';
import { EmbeddedPostgres } from './embedded-postgres';

/** Any 64-bit number unique to Switchboard: serialises migrations across replicas. */
const MIGRATION_LOCK_KEY = 727_274_001;
const CONNECT_ATTEMPTS = 10;
const CONNECT_RETRY_MS = 2_000;

/**
 * A connected DataSource plus whatever has to be shut down with it. Used by the Nest module and
 * by the command-line tools, so both start the database the same way.
 */
export class Database {
  private constructor(
    readonly dataSource: DataSource,
    private readonly embedded: EmbeddedPostgres | undefined,
  ) {}

  /** What the server (or a CLI) will connect to, in words for the logs. */
  static describe(config: AppConfig): string {
    return config.database.mode === 'external'
      ? `external PostgreSQL (${redactUrl(config.database.url)})`
      : `embedded PGlite in ${config.database.dataDir}`;
  }

  /**
   * Connects and (unless disabled) migrates. In embedded mode it starts PGlite in DATA_DIR, or -
   * with `attachToRunning` - connects to the socket of a server that already owns DATA_DIR.
   */
  static async open(config: AppConfig, options: { attachToRunning?: boolean; runMigrations?: boolean } = {}) {
    const logger = new Logger('Database');
    const db = config.database;
    let embedded: EmbeddedPostgres | undefined;
    let dataSource: DataSource;
    if (db.mode === 'external') {
      dataSource = new DataSource(dataSourceOptions({ kind: 'url', url: db.url }, db.poolSize));
    } else if (options.attachToRunning && EmbeddedPostgres.runningOwner(db.dataDir) !== undefined) {
      logger.log(`Attaching to the running server's embedded database in ${db.dataDir}`);
      const connection = EmbeddedPostgres.connectionFor(db.dataDir);
      dataSource = new DataSource(dataSourceOptions({ kind: 'embedded', connection }, 2));
    } else {
      embedded = await EmbeddedPostgres.start(db.dataDir, db.poolSize);
      dataSource = new DataSource(
        dataSourceOptions({ kind: 'embedded', connection: embedded.connection }, db.poolSize),
      );
    }
    try {
      await initializeWithRetry(dataSource, db.mode === 'external' ? CONNECT_ATTEMPTS : 1, logger);
      if (options.runMigrations ?? db.migrationsRun) await migrate(dataSource, db.mode === 'external', logger);
    } catch (error) {
      if (dataSource.isInitialized) await dataSource.destroy().catch(() => undefined);
      await embedded?.stop().catch(() => undefined);
      throw error;
    }
    return new Database(dataSource, embedded);
  }

  async close(): Promise<void> {
    if (this.dataSource.isInitialized) await this.dataSource.destroy();
    await this.embedded?.stop();
  }
}

async function initializeWithRetry(dataSource: DataSource, attempts: number, logger: Logger): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await dataSource.initialize();
      return;
    } catch (error) {
      if (attempt >= attempts) throw error;
      logger.warn(`Database not reachable (attempt ${attempt}/${attempts}): ${(error as Error).message}`);
      await new Promise((resolve) => setTimeout(resolve, CONNECT_RETRY_MS));
    }
  }
}

/** Runs pending migrations, holding an advisory lock so two replicas never migrate at once. */
export async function migrate(dataSource: DataSource, lock: boolean, logger: Logger): Promise<string[]> {
  const runner = dataSource.createQueryRunner();
  try {
    if (lock) await runner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    const applied = await dataSource.runMigrations({ transaction: 'each' });
    if (applied.length > 0) logger.log(`Applied migrations: ${applied.map((m) => m.name).join(', ')}`);
    return applied.map((m) => m.name);
  } finally {
    if (lock) await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
    await runner.release();
  }
}
