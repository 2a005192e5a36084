import { Logger } from '@nestjs/common';
import { AppConfig } from '../platform/config/app-config';
import { Database, migrate } from '../platform/database/database';
import { runCli, UsageError } from './run-cli';

const USAGE = `Usage:
  npm run migration:run      apply pending migrations
  npm run migration:revert   undo the last applied migration
  npm run migration:show     tell whether migrations are pending`;

runCli(
  USAGE,
  async (app) => {
    const { dataSource } = app.get(Database);
    const command = process.argv[2];
    const logger = new Logger('Migrations');
    switch (command) {
      case 'run': {
        const external = app.get(AppConfig).database.mode === 'external';
        const applied = await migrate(dataSource, external, logger);
        process.stdout.write(applied.length ? `Applied: ${applied.join(', ')}\n` : 'No pending migrations.\n');
        return;
      }
      case 'revert':
        await dataSource.undoLastMigration({ transaction: 'each' });
        process.stdout.write('Reverted the last migration.\n');
        return;
      case 'show': {
        const pending = await dataSource.showMigrations();
        process.stdout.write(
          pending ? 'There are pending migrations (npm run migration:run).\n' : 'All migrations are applied.\n',
        );
        return;
      }
      default:
        throw new UsageError(command ? `Unknown command: ${command}` : 'No command given');
    }
  },
  { runMigrations: false },
);
