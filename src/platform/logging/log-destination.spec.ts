import { Writable } from 'node:stream';
import { pino } from 'pino';
import { logDestination, logFormat } from './log-destination';

describe('logFormat', () => {
  it('is pretty only in development on a terminal', () => {
    expect(logFormat('development', true)).toBe('pretty');
    expect(logFormat('development', false)).toBe('json');
    expect(logFormat('development', undefined)).toBe('json');
    expect(logFormat('production', true)).toBe('json');
    expect(logFormat('test', true)).toBe('json');
    expect(logFormat(undefined, true)).toBe('json');
  });
});

describe('logDestination', () => {
  it("leaves JSON to pino's own stdout destination", () => {
    expect(logDestination('json')).toBeUndefined();
  });

  it('writes human-readable lines, redaction applied before printing', () => {
    let text = '';
    const out = new Writable({
      write(chunk: Buffer, _encoding, done) {
        text += chunk.toString();
        done();
      },
    });
    const destination = logDestination('pretty', out);
    const logger = pino({ level: 'info', redact: ['apiKey'], base: { service: 'switchboard' } }, destination);
    logger.info({ context: 'Bootstrap', apiKey: 'sk_secret_value' }, 'Switchboard listening on :8080');
    expect(text).toContain('INFO');
    expect(text).toContain('Switchboard listening on :8080');
    expect(text).not.toMatch(/^\{/);
    expect(text).not.toContain('sk_secret_value');
    expect(text).not.toContain('"service"');
  });
});
