import { hash } from 'node:crypto';

/**
 * SHA-256 of a UTF-8 string, hex: how bearer secrets (API keys, session tokens) are stored. Every
 * authenticated request hashes its key: the one-shot `crypto.hash` costs less than half of a
 * `createHash` object's update and digest.
 */
export function sha256Hex(text: string): string {
  return hash('sha256', text, 'hex');
}
