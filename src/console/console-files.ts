/** What a request under /console asks the static console for. */
export type ConsoleAsset =
  /** `/console`: on to `/console/`, so the page's relative URLs resolve under it. */
  | { kind: 'redirect'; location: string }
  /** The app's page: `/console/` and every client-side route (a path without a file extension). */
  | { kind: 'index' }
  /** A built file, relative to the dist folder; `immutable` for the hashed bundles under assets/. */
  | { kind: 'file'; relative: string; immutable: boolean }
  | { kind: 'not-found' };

export const CONSOLE_BASE = '/console';

/**
 * Resolves a request path (as sent, percent-encoded) under /console. Never leaves the dist folder:
 * `.`/`..` segments, hidden files, backslashes and NULs are not found.
 */
export function consoleAssetFor(pathname: string, query = ''): ConsoleAsset {
  if (pathname === CONSOLE_BASE) return { kind: 'redirect', location: `${CONSOLE_BASE}/${query}` };
  if (!pathname.startsWith(`${CONSOLE_BASE}/`)) return { kind: 'not-found' };
  let relative: string;
  try {
    relative = decodeURIComponent(pathname.slice(CONSOLE_BASE.length + 1));
  } catch {
    return { kind: 'not-found' };
  }
  if (relative === '') return { kind: 'index' };
  const segments = relative.split('/');
  const unsafe = segments.some((s) => s.startsWith('.') || s.includes('\\') || s.includes('\0'));
  if (unsafe) return { kind: 'not-found' };
  const last = segments[segments.length - 1];
  if (!/\.[A-Za-z0-9]+$/.test(last)) return { kind: 'index' };
  if (relative === 'index.html') return { kind: 'index' };
  return { kind: 'file', relative, immutable: segments[0] === 'assets' };
}

/** On every answer under /console: a strict policy, as the app needs nothing from elsewhere. */
export const CONSOLE_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; '),
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
};

export const IMMUTABLE = 'public, max-age=31536000, immutable';
export const REVALIDATE = 'no-cache';

/** Whether a request is a browser asking for a page (its Accept names text/html). */
export function wantsHtml(accept: string | undefined): boolean {
  return typeof accept === 'string' && /(^|,)\s*text\/html\s*(;|,|$)/i.test(accept);
}
