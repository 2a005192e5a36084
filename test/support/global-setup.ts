import { ensurePgliteTemplate } from './pglite-template';

/** Runs once before all test files. */
export default async function globalSetup(): Promise<void> {
  process.env.NODE_ENV = 'test';
  if (!process.env.DATABASE_URL) await ensurePgliteTemplate();
}
