import type { IncomingMessage } from 'node:http';
import { readCookie, sessionIdOf } from './console-cookie';

const request = (headers: Record<string, string>) => ({ headers }) as unknown as IncomingMessage;

describe('console cookie', () => {
  it('reads one cookie from a Cookie header, the first of its name, unquoted', () => {
    expect(readCookie('a=1; sb_console=abc; b=2', 'sb_console')).toBe('abc');
    expect(readCookie('sb_console="q"; sb_console=second', 'sb_console')).toBe('q');
    expect(readCookie('xsb_console=1; sb_consolex=2', 'sb_console')).toBeUndefined();
    expect(readCookie('garbage;;=;', 'sb_console')).toBeUndefined();
  });

  it('finds the session id of a request, or none', () => {
    expect(sessionIdOf(request({ cookie: 'sb_console=id-1' }))).toBe('id-1');
    expect(sessionIdOf(request({ cookie: 'sb_console=' }))).toBeUndefined();
    expect(sessionIdOf(request({}))).toBeUndefined();
  });
});
