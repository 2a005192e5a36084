import { Inject, Injectable, LoggerService } from '@nestjs/common';
import type { Logger as Pino } from 'pino';

/** The process's root pino logger (JSON lines on stdout), made by LoggingModule. */
export const ROOT_LOGGER = Symbol('switchboard.rootLogger');

type Level = 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal';

/** Nest's exception handlers call `error(message, stack)`: a stack is a string with "at" lines. */
const STACK = /\n\s*at /;

/**
 * Nest's logger interface on pino: `new Logger('Context').log(...)` anywhere in the app writes a
 * JSON line with `context`. An Error (or a message with its stack, as Nest's own exception
 * handlers pass it) becomes `err`, which pino serializes with its stack.
 */
@Injectable()
export class PinoNestLogger implements LoggerService {
  constructor(@Inject(ROOT_LOGGER) private readonly pino: Pino) {}

  verbose(message: unknown, ...params: unknown[]): void {
    this.write('trace', message, params);
  }

  debug(message: unknown, ...params: unknown[]): void {
    this.write('debug', message, params);
  }

  log(message: unknown, ...params: unknown[]): void {
    this.write('info', message, params);
  }

  warn(message: unknown, ...params: unknown[]): void {
    this.write('warn', message, params);
  }

  error(message: unknown, ...params: unknown[]): void {
    this.write('error', message, params);
  }

  fatal(message: unknown, ...params: unknown[]): void {
    this.write('fatal', message, params);
  }

  /** Nest passes the context last; anything between message and context is printf-style arguments. */
  private write(level: Level, message: unknown, params: unknown[]): void {
    if (!this.pino.isLevelEnabled(level)) return;
    const fields: Record<string, unknown> = {};
    let rest = params;
    if (params.length > 0) {
      fields.context = params[params.length - 1];
      rest = params.slice(0, -1);
    }
    if (message instanceof Error) {
      fields.err = message;
      this.pino[level](fields, message.message, ...rest);
    } else if (typeof message === 'object' && message !== null) {
      this.pino[level](Object.assign(fields, message), ...(rest as [string?]));
    } else if (level === 'error' && rest.length === 1 && typeof rest[0] === 'string' && STACK.test(rest[0])) {
      const err = new Error(String(message));
      err.stack = rest[0];
      fields.err = err;
      this.pino[level](fields, String(message));
    } else {
      this.pino[level](fields, String(message), ...rest);
    }
  }
}
