import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import type { ServerCommand, ServerInfo, ServerOptions, ServerReply } from './server';

const SCRIPT = join(__dirname, 'server.ts');
const PROJECT_ROOT = join(__dirname, '..', '..');
const START_TIMEOUT_MS = 180_000;

type Command = ServerCommand extends infer C ? (C extends { id: number } ? Omit<C, 'id'> : never) : never;

/** Switchboard in a child process (server.ts), driven over IPC. */
export class ServerProcess {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  private readonly exited: Promise<number | null>;

  private constructor(
    private readonly child: ChildProcess,
    readonly info: ServerInfo,
  ) {
    child.on('message', (message: ServerReply) => {
      if (message.type !== 'reply') return;
      const waiter = this.pending.get(message.id);
      this.pending.delete(message.id);
      if (message.error) waiter?.reject(new Error(`server: ${message.error}`));
      else waiter?.resolve(message.result);
    });
    this.exited = new Promise((resolve) => {
      if (child.exitCode !== null) resolve(child.exitCode);
      else child.once('exit', (code) => resolve(code));
    });
    void this.exited.then(() => {
      for (const waiter of this.pending.values()) waiter.reject(new Error('the server process exited'));
      this.pending.clear();
    });
  }

  /** `env`: DATABASE_URL (admin URL) and REDIS_URL (or undefined: the in-process bus). */
  static async start(
    options: ServerOptions,
    env: { DATABASE_URL: string; REDIS_URL?: string },
  ): Promise<ServerProcess> {
    const childEnv: NodeJS.ProcessEnv = {
      ...process.env,
      TS_NODE_PROJECT: join(PROJECT_ROOT, 'tsconfig.json'),
      DATABASE_URL: env.DATABASE_URL,
    };
    if (env.REDIS_URL) childEnv.REDIS_URL = env.REDIS_URL;
    else delete childEnv.REDIS_URL;
    const child = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', SCRIPT, JSON.stringify(options)], {
      cwd: PROJECT_ROOT,
      // stdout (log lines, with --log-level) goes to /dev/null; errors to stderr.
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
      env: childEnv,
    });
    const info = await new Promise<ServerInfo>((resolve, reject) => {
      const timer = setTimeout(() => {
        child.kill('SIGTERM');
        reject(new Error(`the server did not start within ${START_TIMEOUT_MS / 1000} s`));
      }, START_TIMEOUT_MS);
      child.on('message', (message: ServerReply) => {
        if (message.type === 'ready') {
          clearTimeout(timer);
          resolve(message.info);
        } else if (message.type === 'failed') {
          clearTimeout(timer);
          reject(new Error(`the server failed to start:\n${message.error}`));
        }
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`the server exited with code ${code} before it was ready`));
      });
    });
    return new ServerProcess(child, info);
  }

  get pid(): number {
    return this.info.pid;
  }

  request<T = unknown>(command: Command): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: (v) => resolve(v as T), reject });
      this.child.send({ ...command, id });
    });
  }

  /** Asks the process to close the app and drop its database; kills it if it has not within 30 s. */
  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    if (this.child.connected) this.child.send({ id: 0, type: 'stop' } satisfies ServerCommand);
    else this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 30_000);
    await this.exited;
    clearTimeout(timer);
  }
}
