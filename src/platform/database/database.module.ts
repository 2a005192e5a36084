import { DynamicModule, Global, Inject, Logger, Module, OnApplicationShutdown } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { Database } from './database';
import { WriteBehindQueues } from './write-behind-queues';
import { Retention } from './retention';

export interface DatabaseModuleOptions {
  /** Embedded mode: connect to a running server's PGlite instead of failing (the CLIs). */
  attachToRunning?: boolean;
  /** Overrides DATABASE_MIGRATIONS_RUN (the migration CLI migrates on its own terms). */
  runMigrations?: boolean;
}

/**
 * Provides the TypeORM DataSource (external Postgres when DATABASE_URL is set, embedded PGlite
 * otherwise), migrated at start, and the write-behind queues (rows written behind the answers);
 * on shutdown it writes out those queues, then closes the database - then the embedded server.
 */
@Global()
@Module({})
export class DatabaseModule implements OnApplicationShutdown {
  constructor(
    @Inject(Database) private readonly database: Database,
    private readonly writeBehind: WriteBehindQueues,
  ) {}

  static forRoot(options: DatabaseModuleOptions = {}): DynamicModule {
    return {
      module: DatabaseModule,
      providers: [
        {
          provide: Database,
          inject: [AppConfig],
          useFactory: async (config: AppConfig) => {
            new Logger('Database').log(`Using ${Database.describe(config)}`);
            return Database.open(config, options);
          },
        },
        { provide: DataSource, inject: [Database], useFactory: (db: Database) => db.dataSource },
        WriteBehindQueues,
        Retention,
      ],
      exports: [DataSource, Database, WriteBehindQueues, Retention],
    };
  }

  /** What the write-behind queues still hold is written first: every other module has shut down by now. */
  async onApplicationShutdown(): Promise<void> {
    await this.writeBehind.closeAll();
    await this.database.close();
  }
}
