import { Module } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { hostname } from 'node:os';
import { AppConfig } from '../config/app-config';
import { loggableUrl } from './loggable-url';

const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** A caller's X-Request-Id if it is sane, else a new UUID; echoed back on the response. */
function requestId(req: IncomingMessage, res: ServerResponse): string {
  const incoming = req.headers['x-request-id'];
  const id = typeof incoming === 'string' && SAFE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
  res.setHeader('X-Request-Id', id);
  return id;
}

/**
 * What a request line records: an allow-list, so credentials (X-Api-Key, Authorization, session
 * tokens, cookies) never reach the logs - no header is logged unless named here. That makes a
 * redaction pass unnecessary, which matters: pino-http serializes this for every request, even
 * when nothing is written.
 */
function requestSummary(req: IncomingMessage & { id?: unknown; raw?: IncomingMessage }) {
  const raw = req.raw ?? req;
  return {
    id: req.id,
    method: raw.method,
    url: loggableUrl(raw.url),
    remoteAddress: raw.socket?.remoteAddress,
    userAgent: raw.headers['user-agent'],
    contentLength: raw.headers['content-length'],
  };
}

/**
 * JSON logs through pino: one line per request with its id (also bound to every log line
 * written while handling it), no credentials, health probes not logged.
 */
@Module({
  imports: [
    LoggerModule.forRootAsync({
      inject: [AppConfig],
      useFactory: (config: AppConfig) => ({
        pinoHttp: {
          level: config.log.level,
          base: { service: 'switchboard', pid: process.pid, hostname: hostname() },
          genReqId: requestId,
          serializers: {
            req: requestSummary,
            res: (res: ServerResponse) => ({ statusCode: res.statusCode }),
          },
          autoLogging: { ignore: (req: IncomingMessage) => req.url?.startsWith('/health/') ?? false },
          customLogLevel: (_req: IncomingMessage, res: ServerResponse, error?: Error) =>
            error || res.statusCode >= 500 ? 'error' : 'info',
        },
      }),
    }),
  ],
})
export class LoggingModule {}
