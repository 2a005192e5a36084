import type { DestinationStream } from 'pino';
import { PrettyOptions, build as prettyStream } from 'pino-pretty';

/** How log lines reach stdout: JSON (machines, files, CI) or human-readable (a person at a terminal). */
export type LogFormat = 'json' | 'pretty';

/**
 * Human-readable lines only when a person is watching: NODE_ENV=development and stdout is a
 * terminal. Anything piped, collected or run in production/test stays one JSON object a line.
 */
export function logFormat(env: string | undefined, stdoutIsTty: boolean | undefined): LogFormat {
  return env === 'development' && stdoutIsTty === true ? 'pretty' : 'json';
}

export const PRETTY_OPTIONS: PrettyOptions = {
  colorize: true,
  translateTime: 'SYS:HH:MM:ss.l',
  ignore: 'pid,hostname,service,context',
  messageFormat: '{if context}[{context}] {end}{msg}',
  singleLine: false,
};

/**
 * The stream pino writes to, or undefined for pino's own stdout destination (JSON lines).
 * Pretty printing runs in-process, synchronously, on lines pino has already serialized (and
 * redacted), so it shows exactly what the JSON form would have.
 */
export function logDestination(
  format: LogFormat,
  out: NodeJS.WritableStream = process.stdout,
): DestinationStream | undefined {
  return format === 'pretty' ? prettyStream({ ...PRETTY_OPTIONS, destination: out, sync: true }) : undefined;
}
