import { consoleAssetFor, wantsHtml } from './console-files';

describe('consoleAssetFor', () => {
  it('sends /console on to /console/, keeping the query', () => {
    expect(consoleAssetFor('/console', '?a=1')).toEqual({ kind: 'redirect', location: '/console/?a=1' });
  });

  it('answers the page for the root, index.html and every path without a file extension', () => {
    for (const path of [
      '/console/',
      '/console/index.html',
      '/console/agents',
      '/console/tasks/abc/tree',
      '/console/v1.0/x',
    ])
      expect([path, consoleAssetFor(path).kind]).toEqual([path, 'index']);
  });

  it('names built files, immutable under assets/ only', () => {
    expect(consoleAssetFor('/console/assets/index-Ab12.js')).toEqual({
      kind: 'file',
      relative: 'assets/index-Ab12.js',
      immutable: true,
    });
    expect(consoleAssetFor('/console/favicon.svg')).toEqual({
      kind: 'file',
      relative: 'favicon.svg',
      immutable: false,
    });
    expect(consoleAssetFor('/console/assets%2Fa.js')).toEqual({
      kind: 'file',
      relative: 'assets/a.js',
      immutable: true,
    });
  });

  it('never leaves the folder: dot segments, hidden files, backslashes, NULs and bad encoding are not found', () => {
    for (const path of [
      '/console/../package.json',
      '/console/%2e%2e/package.json',
      '/console/assets/%2E%2E%2F%2E%2E%2Fpackage.json',
      '/console/.env',
      '/console/assets/.x.js',
      '/console/..%5Cpackage.json',
      '/console/a%00.js',
      '/console/%E0%A4%A.js',
      '/consoles/x.js',
    ])
      expect([path, consoleAssetFor(path).kind]).toEqual([path, 'not-found']);
  });
});

describe('wantsHtml', () => {
  it('is true when Accept names text/html, as browsers send it', () => {
    expect(wantsHtml('text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8')).toBe(true);
    expect(wantsHtml('application/json, text/html;q=0.5')).toBe(true);
  });

  it('is false otherwise', () => {
    for (const accept of [undefined, '', '*/*', 'application/json', 'text/html-fragment', 'text/plain'])
      expect([accept, wantsHtml(accept)]).toEqual([accept, false]);
  });
});
