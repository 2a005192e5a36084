import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AppConfig } from '../config/app-config';

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;
const KEY_FILE = 'secrets.key';

/**
 * Encrypts secrets the hub must be able to use again (credentials for remote agents, webhook
 * tokens) with AES-256-GCM. Sealed values look like `v1:<base64 iv|tag|ciphertext>`; the prefix
 * leaves room for key rotation. API keys are not stored here: they are hashed (see auth).
 */
export class SecretBox {
  private constructor(private readonly key: Buffer) {}

  /**
   * SECRETS_KEY, else (embedded database only: configuration requires SECRETS_KEY with
   * DATABASE_URL) the key file in DATA_DIR, created on first use and readable by its owner only.
   */
  static fromConfig(config: AppConfig): SecretBox {
    if (config.secretsKey) return new SecretBox(Buffer.from(config.secretsKey, 'base64'));
    const path = join(config.dataDir, KEY_FILE);
    if (!existsSync(path)) {
      mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
      writeFileSync(path, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
    }
    const key = Buffer.from(readFileSync(path, 'utf8').trim(), 'base64');
    if (key.length !== 32) throw new Error(`${path} does not hold a 32-byte base64 key`);
    return new SecretBox(key);
  }

  static withKey(key: Buffer): SecretBox {
    if (key.length !== 32) throw new RangeError('A secret box key is 32 bytes');
    return new SecretBox(key);
  }

  seal(plaintext: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return `${VERSION}:${Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString('base64')}`;
  }

  /** Throws if the value was not sealed with this key or was altered. */
  open(sealed: string): string {
    const [version, payload] = sealed.split(':', 2);
    if (version !== VERSION || !payload) throw new Error('Not a sealed secret');
    const raw = Buffer.from(payload, 'base64');
    if (raw.length < IV_BYTES + TAG_BYTES) throw new Error('Sealed secret is truncated');
    const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, IV_BYTES));
    decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
  }
}
