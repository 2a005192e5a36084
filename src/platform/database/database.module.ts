import { DynamicModule, Global, Inject, Logger, Module, OnApplicationShutdown } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { Database } from './database';

export interface DatabaseModuleOptions {
  /** Embedded mode: connect to a running server's PGlite instead of failing (the CLIs). */
  attachToRunning?: boolean;
  /** Overrides DATABASE_MIGRATIONS_RUN (the migration CLI migrates on its own terms). */
  runMigrations?: boolean;
}

/**
 * Provides the TypeORM DataSource (external Postgres when DATABASE_URL is set, embedded PGlite
 * otherwise), migrated at start, and closes it - then the embedded server - on shutdown.
 */
@Global()
@Module({})
export class DatabaseModule implements OnApplicationShutdown {
  constructor(@Inject(Database) private readonly database: Database) {}

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
      ],
      exports: [DataSource, Database],
    };
  }

  async onApplicationShutdown(): Promise<void> {
    await this.database.close();
  }
}
