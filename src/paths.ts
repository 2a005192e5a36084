import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

/** The repository root, the same from `src/` (ts-jest) and from `dist/` (compiled). */
export const PROJECT_ROOT = resolve(__dirname, '..');
export const PROTO_DIR = resolve(PROJECT_ROOT, 'proto');

/** The version in package.json, shown by the API, OpenAPI and logs. */
export const VERSION: string = (
  JSON.parse(readFileSync(resolve(PROJECT_ROOT, 'package.json'), 'utf8')) as { version: string }
).version;
