import { AppConfig } from './app-config';
import { ConfigurationError, validateEnvironment } from './environment';

describe('validateEnvironment', () => {
  it('fills every default on an empty environment', () => {
    const env = validateEnvironment({});
    expect(env).toMatchObject({
      PORT: 8080,
      GRPC_PORT: 50051,
      DATA_DIR: './data',
      DATABASE_POOL_SIZE: 10,
      DATABASE_MIGRATIONS_RUN: true,
      REDIS_KEY_PREFIX: 'switchboard:',
      RATE_LIMIT_REGISTRY_PER_MIN: 10,
      RATE_LIMIT_CONVERSATION_PER_MIN: 60,
      RATE_LIMIT_FAIL_OPEN: false,
      MAX_BODY_BYTES: 1_048_576,
      LOG_LEVEL: 'info',
    });
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.REDIS_URL).toBeUndefined();
  });

  it('converts numbers and booleans from strings', () => {
    const env = validateEnvironment({ PORT: '9000', RATE_LIMIT_FAIL_OPEN: 'yes', DATABASE_MIGRATIONS_RUN: 'false' });
    expect(env.PORT).toBe(9000);
    expect(env.RATE_LIMIT_FAIL_OPEN).toBe(true);
    expect(env.DATABASE_MIGRATIONS_RUN).toBe(false);
  });

  it('treats empty values as unset', () => {
    const env = validateEnvironment({ DATABASE_URL: '', REDIS_URL: '  ', ADMIN_API_KEY: '' });
    expect(new AppConfig(env).database.mode).toBe('embedded');
    expect(new AppConfig(env).redis.mode).toBe('in-process');
  });

  it('names every bad variable and never shows a value', () => {
    const secret = 'hunter2-very-secret-password';
    let error: unknown;
    try {
      validateEnvironment({
        PORT: 'eighty',
        DATABASE_URL: `mysql://root:${secret}@db/app`,
        REDIS_URL: `http://:${secret}@cache`,
        ADMIN_API_KEY: 'short',
        LOG_LEVEL: 'loud',
        RATE_LIMIT_FAIL_OPEN: 'maybe',
        MAX_BODY_BYTES: '12.5',
      });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigurationError);
    const { message, problems } = error as ConfigurationError;
    expect(problems.map((p) => p.variable).sort()).toEqual(
      [
        'ADMIN_API_KEY',
        'DATABASE_URL',
        'LOG_LEVEL',
        'MAX_BODY_BYTES',
        'PORT',
        'RATE_LIMIT_FAIL_OPEN',
        'REDIS_URL',
        'SECRETS_KEY',
      ].sort(),
    );
    for (const leaked of [secret, 'eighty', 'short', 'loud', 'maybe', '12.5']) expect(message).not.toContain(leaked);
  });

  it('requires SECRETS_KEY with an external database, so replicas share it', () => {
    expect(() => validateEnvironment({ DATABASE_URL: 'postgres://db/sb' })).toThrow(
      /SECRETS_KEY \(required when DATABASE_URL is set/,
    );
    const key = Buffer.alloc(32, 7).toString('base64');
    expect(validateEnvironment({ DATABASE_URL: 'postgres://db/sb', SECRETS_KEY: key }).SECRETS_KEY).toBe(key);
    expect(() => validateEnvironment({ SECRETS_KEY: 'short' })).toThrow(/SECRETS_KEY must be 32 bytes/);
  });

  it('refuses out-of-range ports and pool sizes', () => {
    expect(() => validateEnvironment({ PORT: '70000' })).toThrow(/PORT/);
    expect(() => validateEnvironment({ DATABASE_POOL_SIZE: '1' })).toThrow(/DATABASE_POOL_SIZE/);
  });
});

describe('AppConfig', () => {
  it('chooses external backends when their URLs are set', () => {
    const config = new AppConfig(
      validateEnvironment({
        DATABASE_URL: 'postgres://u:p@db:5432/sb',
        REDIS_URL: 'redis://cache:6379',
        SECRETS_KEY: Buffer.alloc(32, 1).toString('base64'),
      }),
    );
    expect(config.database).toMatchObject({ mode: 'external', url: 'postgres://u:p@db:5432/sb' });
    expect(config.redis).toMatchObject({ mode: 'redis', url: 'redis://cache:6379' });
  });

  it('resolves DATA_DIR against the working directory', () => {
    const config = new AppConfig(validateEnvironment({ DATA_DIR: 'state' }));
    expect(config.database).toMatchObject({ mode: 'embedded', dataDir: `${process.cwd()}/state` });
  });
});
