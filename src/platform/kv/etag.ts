import { randomBytes } from 'node:crypto';

/** A fresh random etag: never reused, so a deleted-then-recreated key cannot match an old one. */
export function newEtag(): string {
  return randomBytes(12).toString('base64url');
}
