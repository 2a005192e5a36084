import { generateApiKey, hashApiKey, lookupPrefix, sameHash } from './api-key-material';

describe('API key material', () => {
  it('generates distinct keys of the documented shape', () => {
    const keys = new Set(Array.from({ length: 200 }, generateApiKey));
    expect(keys.size).toBe(200);
    for (const key of keys) expect(key).toMatch(/^sbk_[A-Za-z0-9]{8}_[A-Za-z0-9_-]{43}$/);
  });

  it('looks generated keys up by their visible head', () => {
    const key = generateApiKey();
    expect(lookupPrefix(key)).toBe(key.slice(0, 12));
  });

  it('never stores any part of an operator-supplied key', () => {
    const key = 'my-own-admin-key-from-a-kubernetes-secret';
    const prefix = lookupPrefix(key);
    expect(prefix).toMatch(/^h:[0-9a-f]{10}$/);
    expect(key).not.toContain(prefix.slice(2));
    expect(prefix.slice(2)).toBe(hashApiKey(key).slice(0, 10));
  });

  it('hashes with SHA-256 and compares hashes exactly', () => {
    const hash = hashApiKey('abc');
    expect(hash).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(sameHash(hash, hashApiKey('abc'))).toBe(true);
    expect(sameHash(hash, hashApiKey('abd'))).toBe(false);
    expect(sameHash(hash, 'ba78')).toBe(false);
  });
});
