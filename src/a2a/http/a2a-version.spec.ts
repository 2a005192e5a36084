import type { Request } from 'express';
import { negotiateVersion, servedVersion } from './a2a-version';

describe('servedVersion', () => {
  it.each([
    [undefined, '0.3'],
    ['', '0.3'],
    ['  ', '0.3'],
    ['0.3', '0.3'],
    ['0.3.0', '0.3'],
    ['1', '1.0'],
    ['1.0', '1.0'],
    ['1.0.4', '1.0'],
    [' 1.0 ', '1.0'],
    [['1.0', '0.3'], '1.0'],
  ])('%j → %s', (header, version) => {
    expect(servedVersion(header)).toBe(version);
  });

  it.each(['0.5', '0.2', '1.1', '2', '2.0', 'v1', '1.0-beta', '01.0', 'latest', '1.0.x'])(
    '%s is not served',
    (header) => {
      expect(servedVersion(header)).toBeUndefined();
    },
  );
});

describe('negotiateVersion', () => {
  const request = (header?: string) => ({ headers: header === undefined ? {} : { 'a2a-version': header } }) as Request;

  it('spells a served version as the SDK compares it, and leaves an absent header absent', () => {
    for (const [header, spelled] of [
      ['1', '1.0'],
      ['1.0.2', '1.0'],
      ['0.3.0', '0.3'],
      ['1.0', '1.0'],
    ]) {
      const req = request(header);
      expect(negotiateVersion(req)).toEqual({ version: spelled });
      expect(req.headers['a2a-version']).toBe(spelled);
    }
    const empty = request('');
    expect(negotiateVersion(empty)).toEqual({ version: '0.3' });
    expect(empty.headers).not.toHaveProperty('a2a-version');
    expect(negotiateVersion(request())).toEqual({ version: '0.3' });
  });

  it('answers a version it does not serve with the SDK’s VersionNotSupportedError', () => {
    const outcome = negotiateVersion(request('0.5'));
    expect(outcome).toEqual({ error: expect.objectContaining({ name: 'VersionNotSupportedError' }) });
    if ('error' in outcome) {
      expect(outcome.error.reason).toBe('VERSION_NOT_SUPPORTED');
      expect(outcome.error.message).toBe(
        "The requested A2A protocol version '0.5' is not supported. Supported versions: 1.0, 0.3",
      );
    }
  });
});
