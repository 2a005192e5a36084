import { sha256Hex } from './sha256';

describe('sha256Hex', () => {
  it('is SHA-256 in lower-case hex (the FIPS 180-2 test vector)', () => {
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('hashes the UTF-8 bytes of the text, as keys stored before were hashed', () => {
    expect(sha256Hex('héllo ☃')).toBe('c3a3e84b30327c8e3f04a788d8b68da3fd94c22353c5a30e3fe6ca7ebde3ab3f');
  });
});
