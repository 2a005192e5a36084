/**
 * The DataSource file for the TypeORM CLI (`npm run migration:generate -- <Name>`), built from the
 * same configuration as the server. The server and `npm run migration:run` do not use this file:
 * they open the database through Database.open().
 */
import 'reflect-metadata';
import { config as loadDotenv } from 'dotenv';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { validateEnvironment } from '../config/environment';
import { dataSourceOptions } from './data-source-options';
import { EmbeddedPostgres } from './embedded-postgres';

async function createCliDataSource(): Promise<DataSource> {
  loadDotenv({ quiet: true });
  const config = new AppConfig(validateEnvironment(process.env));
  const db = config.database;
  if (db.mode === 'external') return new DataSource(dataSourceOptions({ kind: 'url', url: db.url }, 2));
  const connection =
    EmbeddedPostgres.runningOwner(db.dataDir) !== undefined
      ? EmbeddedPostgres.connectionFor(db.dataDir)
      : (await EmbeddedPostgres.start(db.dataDir, 2)).connection;
  return new DataSource(dataSourceOptions({ kind: 'embedded', connection }, 2));
}

export default createCliDataSource();
