import { parse } from 'cookie';
import type { CookieOptions, Response } from 'express';
import type { IncomingMessage } from 'node:http';

/** The console's session cookie: HttpOnly, SameSite=Strict, Path=/, Secure over https. */
export const CONSOLE_COOKIE = 'sb_console';
/** The header every write signed in by the cookie must carry: the session's CSRF token. */
export const CSRF_HEADER = 'x-csrf-token';

/** The session id in the request's `sb_console` cookie, if any. */
export function sessionIdOf(req: IncomingMessage): string | undefined {
  const header = req.headers.cookie;
  if (typeof header !== 'string' || !header) return undefined;
  const value = readCookie(header, CONSOLE_COOKIE);
  return value ? value : undefined;
}

/** Sets the session cookie (express serializes it: Max-Age and Expires). */
export function setSessionCookie(res: Response, id: string, maxAgeSeconds: number, secure: boolean): void {
  res.cookie(CONSOLE_COOKIE, id, { ...attributes(secure), maxAge: maxAgeSeconds * 1000 });
}

/** Tells the browser to forget the session cookie. */
export function clearSessionCookie(res: Response, secure: boolean): void {
  if (!res.headersSent) res.clearCookie(CONSOLE_COOKIE, attributes(secure));
}

function attributes(secure: boolean): CookieOptions {
  return { httpOnly: true, sameSite: 'strict', path: '/', secure };
}

/** One cookie's value from a `Cookie` header (the first of that name; surrounding quotes dropped). */
export function readCookie(header: string, name: string): string | undefined {
  return parse(header)[name];
}
