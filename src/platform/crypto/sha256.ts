import { createHash } from 'node:crypto';

/** SHA-256 of a UTF-8 string, hex: how bearer secrets (API keys, session tokens) are stored. */
export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}
