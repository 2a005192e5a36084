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
        // eslint-disable-next-line no-control-regex
        text += chunk.toString().replace(/\x1b\[[0-9;]*m/g, '');
        done();
      },
    });
    const destination = logDestination('pretty', out);
    const logger = pino({ level: 'info', redact: ['apiKey'], base: { service: 'switchboard' } }, destination);
    logger.info({ context: 'Bootstrap', apiKey: 'sk_secret_value' }, 'Switchboard listening on :8080');
    expect(text).toContain('INFO');
    expect(text).toContain('[Bootstrap] Switchboard listening on :8080');
    expect(text).not.toMatch(/^\{/);
    expect(text).not.toContain('sk_secret_value');
    expect(text).not.toContain('"service"');
    logger.info('no context here');
    expect(text).toContain('INFO: no context here');
  });
});
