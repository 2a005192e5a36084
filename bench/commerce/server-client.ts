import { join } from 'node:path';
import { BenchProcess } from '../support/child-process';
import type { ServerInfo, ServerKind, ServerOptions } from './server';

/** Generous: the hub loads the whole catalog before it answers `ready`. */
const START_TIMEOUT_MS = 600_000;

/** A server under test in a child process (server.ts), driven over IPC. */
export type ServerProcess = BenchProcess<ServerInfo>;

export const ServerProcess = {
  /** `env` (hub): DATABASE_URL (an admin URL) and REDIS_URL (or undefined: the in-process store). */
  start(
    label: string,
    kind: ServerKind,
    options: ServerOptions,
    env: { DATABASE_URL?: string; REDIS_URL?: string } = {},
  ): Promise<ServerProcess> {
    return BenchProcess.start<ServerInfo>(label, join(__dirname, 'server.ts'), [kind, JSON.stringify(options)], {
      env: { DATABASE_URL: env.DATABASE_URL, REDIS_URL: env.REDIS_URL },
      startTimeoutMs: START_TIMEOUT_MS,
    });
  },
};
