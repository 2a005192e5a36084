import { Inject, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { randomUUID } from 'node:crypto';
import type { Logger as Pino } from 'pino';
import { loggableUrl } from './loggable-url';
import { ROOT_LOGGER } from './pino-nest-logger';

declare module 'node:http' {
  interface IncomingMessage {
    /** The request's id (X-Request-Id), set by HttpEdge before anything else runs. */
    id?: string;
  }
}

/** What a caller's request id may look like to be kept (and logged); anything else is replaced or dropped. */
export const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** A caller's X-Request-Id if it is sane, else a new UUID. */
export function requestIdOf(req: Request): string {
  const incoming = req.headers['x-request-id'];
  return typeof incoming === 'string' && SAFE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

/**
 * What a request line records: an allow-list, so credentials (X-Api-Key, Authorization, session
 * tokens, cookies) never reach the logs - no header is logged unless named here.
 */
function requestSummary(req: Request) {
  return {
    id: req.id,
    method: req.method,
    url: loggableUrl(req.originalUrl ?? req.url),
    remoteAddress: req.socket?.remoteAddress,
    userAgent: req.headers['user-agent'],
    contentLength: req.headers['content-length'],
  };
}

/**
 * One JSON log line per HTTP request when it ends: method, URL without secrets, status, time - at
 * `info`, `error` for a 5xx. Health probes are not logged. The line is built only when it is
 * written, so a request costs nothing here when LOG_LEVEL leaves it out.
 *
 * (pino-http, used before, made two child loggers per request whatever the level, and nestjs-pino
 * ran each request in an AsyncLocalStorage, which on Node 20 puts a hook on every promise of the
 * process. Lines logged while a request runs therefore do not carry its id; its request line and
 * the error lines written for it do.)
 */
@Injectable()
export class RequestLog {
  constructor(@Inject(ROOT_LOGGER) private readonly pino: Pino) {}

  /** Whether a request's line may be written at all (error is the most it is written at). */
  wants(req: Request): boolean {
    return this.pino.isLevelEnabled('error') && !req.url.startsWith('/health/');
  }

  write(req: Request, res: Response, milliseconds: number): void {
    const completed = res.writableFinished;
    const level = completed && res.statusCode >= 500 ? 'error' : 'info';
    if (!this.pino.isLevelEnabled(level)) return;
    this.pino[level](
      {
        req: requestSummary(req),
        res: { statusCode: res.headersSent ? res.statusCode : undefined },
        responseTime: Math.round(milliseconds),
      },
      completed ? 'request completed' : 'request aborted',
    );
  }
}
