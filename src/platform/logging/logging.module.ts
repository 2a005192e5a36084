import { Global, Module } from '@nestjs/common';
import { hostname } from 'node:os';
import { pino } from 'pino';
import { AppConfig } from '../config/app-config';
import { PinoNestLogger, ROOT_LOGGER } from './pino-nest-logger';
import { RequestLog } from './request-log';

/**
 * JSON logs through pino on stdout: Nest's logger (PinoNestLogger, installed by bootstrap) and
 * one line per HTTP request (RequestLog, written by HttpEdge).
 */
@Global()
@Module({
  providers: [
    {
      provide: ROOT_LOGGER,
      inject: [AppConfig],
      useFactory: (config: AppConfig) =>
        pino({ level: config.log.level, base: { service: 'switchboard', pid: process.pid, hostname: hostname() } }),
    },
    PinoNestLogger,
    RequestLog,
  ],
  exports: [ROOT_LOGGER, PinoNestLogger, RequestLog],
})
export class LoggingModule {}
