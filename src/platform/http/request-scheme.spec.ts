import type { IncomingMessage } from 'node:http';
import { cameOverHttps } from './request-scheme';

const request = (headers: Record<string, string>, encrypted = false) =>
  ({ headers, socket: { encrypted } }) as unknown as IncomingMessage;

describe('the request scheme (cameOverHttps)', () => {
  it('knows https by the socket, or by X-Forwarded-Proto only behind a trusted proxy', () => {
    expect(cameOverHttps(request({}, true), false)).toBe(true);
    expect(cameOverHttps(request({ 'x-forwarded-proto': 'https' }), false)).toBe(false);
    expect(cameOverHttps(request({ 'x-forwarded-proto': 'https, http' }), true)).toBe(true);
    expect(cameOverHttps(request({ 'x-forwarded-proto': 'http' }), true)).toBe(false);
  });
});
