import { randomBytes } from 'node:crypto';

/** 96 random bits per process: no two processes (replicas, restarts) share a prefix. */
const PROCESS_PREFIX = randomBytes(12).toString('base64url');
let sequence = 0;

/**
 * A fresh etag: never reused, so a deleted-then-recreated key cannot match an old one. Unique,
 * not secret - an etag only guards a write its caller may already make - so it is this process's
 * random prefix and a counter rather than new random bytes each time (every rate-limited request
 * makes one; `randomBytes` per call was measurable there).
 */
export function newEtag(): string {
  // 2^53 etags would take a process centuries at a million a second.
  return `${PROCESS_PREFIX}.${(++sequence).toString(36)}`;
}
