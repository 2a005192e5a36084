import { Global, Module } from '@nestjs/common';
import { hostname } from 'node:os';
import { pino } from 'pino';
import { AppConfig } from '../config/app-config';
import { logDestination, logFormat } from './log-destination';
import { PinoNestLogger, ROOT_LOGGER } from './pino-nest-logger';
import { RequestLog } from './request-log';

/**
 * Logs through pino on stdout: Nest's logger (PinoNestLogger, installed by bootstrap) and
 * one line per HTTP request (RequestLog, written by HttpEdge). JSON lines, or human-readable
 * ones (pino-pretty) when NODE_ENV=development and stdout is a terminal (logFormat).
 */
@Global()
@Module({
  providers: [
    {
      provide: ROOT_LOGGER,
      inject: [AppConfig],
      useFactory: (config: AppConfig) => {
        const options = {
          level: config.log.level,
          base: { service: 'switchboard', pid: process.pid, hostname: hostname() },
        };
        const destination = logDestination(logFormat(config.env, process.stdout.isTTY));
        return destination ? pino(options, destination) : pino(options);
      },
    },
    PinoNestLogger,
    RequestLog,
  ],
  exports: [ROOT_LOGGER, PinoNestLogger, RequestLog],
})
export class LoggingModule {}
