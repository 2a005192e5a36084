import { randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { sha256Hex } from '../crypto/sha256';

const PREFIX_LENGTH = 12;
const ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/**
 * A new key: `sbk_` + 8 random base62 characters (the lookup prefix) + `_` + 43 characters of
 * base64url (256 random bits). Only its SHA-256 is stored; with 256 bits of entropy a fast hash
 * is as strong as a slow one, and lets every request be checked cheaply.
 */
export function generateApiKey(): string {
  const id = Array.from({ length: 8 }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
  return `sbk_${id}_${randomBytes(32).toString('base64url')}`;
}

const GENERATED_KEY = /^sbk_[A-Za-z0-9]{8}_[A-Za-z0-9_-]{43}$/;

/**
 * The part stored in clear to find candidate rows. For our own keys it is the visible `sbk_xxxxxxxx`
 * head; for operator-supplied keys (ADMIN_API_KEY) it is derived from the hash, so no part of a
 * possibly weaker secret is ever stored or shown.
 */
export function lookupPrefix(key: string): string {
  return GENERATED_KEY.test(key) ? key.slice(0, PREFIX_LENGTH) : `h:${hashApiKey(key).slice(0, 10)}`;
}

export function hashApiKey(key: string): string {
  return sha256Hex(key);
}

/** Constant-time comparison of two hex digests. */
export function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}
