import { join } from 'node:path';
import { BenchProcess } from '../support/child-process';
import type { ServerInfo, ServerOptions } from './server';

/** Switchboard in a child process (server.ts), driven over IPC. */
export type ServerProcess = BenchProcess<ServerInfo>;

export const ServerProcess = {
  /** `env`: DATABASE_URL (admin URL) and REDIS_URL (or undefined: the in-process bus). */
  start(options: ServerOptions, env: { DATABASE_URL: string; REDIS_URL?: string }): Promise<ServerProcess> {
    return BenchProcess.start<ServerInfo>('the server', join(__dirname, 'server.ts'), [JSON.stringify(options)], {
      env,
    });
  },
};
