import type { DataSourceOptions } from 'typeorm';
import type { EmbeddedConnection } from './embedded-postgres';
import { ENTITIES, MIGRATIONS } from './schema';
import { TypeOrmNestLogger } from './typeorm-logger';

export type DatabaseTarget = { kind: 'url'; url: string } | { kind: 'embedded'; connection: EmbeddedConnection };

/**
 * The one definition of how Switchboard talks to Postgres, for the app, the CLIs and the TypeORM
 * CLI alike. Same driver, entities and migrations whether the server is real or embedded.
 */
export function dataSourceOptions(target: DatabaseTarget, poolSize: number): DataSourceOptions {
  const connection =
    target.kind === 'url'
      ? { url: target.url }
      : {
          host: target.connection.socketDir,
          port: target.connection.port,
          username: target.connection.user,
          database: target.connection.database,
        };
  return {
    type: 'postgres',
    ...connection,
    entities: ENTITIES,
    migrations: MIGRATIONS,
    migrationsTableName: 'migrations',
    migrationsTransactionMode: 'each',
    synchronize: false,
    migrationsRun: false,
    logging: ['error', 'warn', 'migration'],
    logger: new TypeOrmNestLogger(),
    maxQueryExecutionTime: 1_000,
    poolSize,
    extra: {
      max: poolSize,
      connectionTimeoutMillis: 10_000,
      idleTimeoutMillis: 30_000,
      application_name: 'switchboard',
    },
  };
}
