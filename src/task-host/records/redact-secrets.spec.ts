import { REDACTED, redactSecrets } from './redact-secrets';

describe('redactSecrets', () => {
  it('redacts fields named like secrets at any depth and keeps the rest', () => {
    const record = {
      task: {
        id: 't1',
        metadata: { apiKey: 'k1', 'x-api-key': 'k2', note: 'keep' },
        history: [{ parts: [{ text: 'hello' }], pushNotificationConfig: { token: 'tok', url: 'https://hook' } }],
      },
      headers: { Authorization: 'Bearer abc', 'Content-Type': 'application/json' },
      credentials: { password: 'p' },
      client_secret: 's',
    };
    expect(redactSecrets(record)).toEqual({
      task: {
        id: 't1',
        metadata: { apiKey: REDACTED, 'x-api-key': REDACTED, note: 'keep' },
        history: [{ parts: [{ text: 'hello' }], pushNotificationConfig: { token: REDACTED, url: 'https://hook' } }],
      },
      headers: { Authorization: REDACTED, 'Content-Type': 'application/json' },
      credentials: REDACTED,
      client_secret: REDACTED,
    });
  });

  it('leaves empty secret fields as they are and does not touch the input', () => {
    const input = { token: null, nested: { secret: 'x' } };
    expect(redactSecrets(input)).toEqual({ token: null, nested: { secret: REDACTED } });
    expect(input.nested.secret).toBe('x');
  });
});
