import { PGlite } from '@electric-sql/pglite';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * An initialised (empty) PGlite cluster, made once per machine: initdb takes seconds, copying a
 * ready cluster into each test's DATA_DIR takes milliseconds. The app then opens it exactly as
 * it opens ./data on a real start (and runs its migrations on it).
 */
const PGLITE_VERSION: string = JSON.parse(
  readFileSync(join(__dirname, '../../node_modules/@electric-sql/pglite/package.json'), 'utf8'),
).version;
const TEMPLATE = join(tmpdir(), `switchboard-test-pglite-${PGLITE_VERSION}`);

export async function ensurePgliteTemplate(): Promise<string> {
  if (existsSync(join(TEMPLATE, 'ready'))) return TEMPLATE;
  const staging = mkdtempSync(`${TEMPLATE}-staging-`);
  const db = await PGlite.create(join(staging, 'pglite'));
  await db.query('SELECT 1');
  await db.close();
  writeFileSync(join(staging, 'ready'), '');
  rmSync(TEMPLATE, { recursive: true, force: true });
  renameSync(staging, TEMPLATE);
  return TEMPLATE;
}

/** A fresh DATA_DIR holding a copy of the template cluster. */
export function freshDataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'sb-'));
  mkdirSync(dir, { recursive: true });
  cpSync(join(TEMPLATE, 'pglite'), join(dir, 'pglite'), { recursive: true });
  return dir;
}
