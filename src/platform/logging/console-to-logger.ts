import { A2AError, restStatusFor } from '@a2a-js/sdk/errors';
import { Logger, LoggerService } from '@nestjs/common';
import { format } from 'node:util';

/**
 * Libraries that write to the console (the A2A SDK logs executor failures with console.error)
 * would break the JSON log stream; their lines go through the logger instead. What the SDK logs
 * of a caller's mistake - a stream asked for a task that is not there, which it answers with
 * that A2A error - is no fault of the server's: one debug line without the stack, as the hub's
 * own error responder logs the mistakes it answers, so no client can fill the error log.
 */
export function routeConsoleToLogger(logger: LoggerService = new Logger('console')): void {
  const text = (args: unknown[]) => format(...args);
  console.log = (...args: unknown[]) => logger.log(text(args));
  console.info = (...args: unknown[]) => logger.log(text(args));
  console.warn = (...args: unknown[]) => logger.warn(text(args));
  console.debug = (...args: unknown[]) => logger.debug?.(text(args));
  console.error = (...args: unknown[]) => {
    const mistake = args.find(isCallersMistake);
    if (!mistake) return logger.error(text(args));
    const context = args.filter((arg) => arg !== mistake).map((arg) => (typeof arg === 'string' ? arg : format(arg)));
    logger.debug?.(`${context.join(' ')} ${mistake.name}: ${mistake.message}`.trim());
  };
}

/** An A2A error the SDK answers a caller with for its own mistake (a 4xx in HTTP terms). */
function isCallersMistake(value: unknown): value is A2AError {
  return value instanceof A2AError && restStatusFor(value) < 500;
}
