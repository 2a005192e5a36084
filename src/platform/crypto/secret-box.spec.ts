import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppConfig } from '../config/app-config';
import { validateEnvironment } from '../config/environment';
import { SecretBox } from './secret-box';

describe('SecretBox', () => {
  const box = SecretBox.withKey(randomBytes(32));

  it('round-trips secrets and never repeats a ciphertext', () => {
    const sealed = [box.seal('token-123'), box.seal('token-123')];
    expect(sealed[0]).toMatch(/^v1:[A-Za-z0-9+/=]+$/);
    expect(sealed[0]).not.toBe(sealed[1]);
    expect(sealed[0]).not.toContain('token-123');
    expect(sealed.map((s) => box.open(s))).toEqual(['token-123', 'token-123']);
    expect(box.open(box.seal('ünïcödé 🔑'))).toBe('ünïcödé 🔑');
  });

  it('refuses altered values, other keys and garbage', () => {
    const sealed = box.seal('secret');
    const raw = Buffer.from(sealed.slice(3), 'base64');
    raw[raw.length - 1] ^= 1;
    expect(() => box.open(`v1:${raw.toString('base64')}`)).toThrow();
    expect(() => SecretBox.withKey(randomBytes(32)).open(sealed)).toThrow();
    expect(() => box.open('plain text')).toThrow('Not a sealed secret');
    expect(() => box.open('v1:AAAA')).toThrow('truncated');
  });

  it('uses SECRETS_KEY when set, else creates a private key file in DATA_DIR once', () => {
    const key = randomBytes(32).toString('base64');
    const fromEnv = SecretBox.fromConfig(new AppConfig(validateEnvironment({ SECRETS_KEY: key })));
    expect(SecretBox.withKey(Buffer.from(key, 'base64')).open(fromEnv.seal('x'))).toBe('x');

    const dir = mkdtempSync(join(tmpdir(), 'sb-secrets-'));
    try {
      const config = new AppConfig(validateEnvironment({ DATA_DIR: dir }));
      const first = SecretBox.fromConfig(config);
      const keyFile = join(dir, 'secrets.key');
      expect(statSync(keyFile).mode & 0o777).toBe(0o600);
      expect(Buffer.from(readFileSync(keyFile, 'utf8').trim(), 'base64')).toHaveLength(32);
      expect(SecretBox.fromConfig(config).open(first.seal('kept across restarts'))).toBe('kept across restarts');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
