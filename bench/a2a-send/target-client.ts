import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import type { HubOptions } from './hub';
import type { TargetCommand, TargetInfo, TargetKind, TargetReply } from './target-process';

const SCRIPT = join(__dirname, 'target-process.ts');
const PROJECT_ROOT = join(__dirname, '..', '..');
const START_TIMEOUT_MS = 180_000;

type Command = TargetCommand extends infer C ? (C extends { id: number } ? Omit<C, 'id'> : never) : never;

/** A server under test in its own process (see target-process.ts), driven over IPC. */
export class TargetProcess {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  private readonly exited: Promise<number | null>;

  private constructor(
    readonly label: string,
    private readonly child: ChildProcess,
    readonly info: TargetInfo,
  ) {
    child.on('message', (message: TargetReply) => {
      if (message.type !== 'reply') return;
      const waiter = this.pending.get(message.id);
      this.pending.delete(message.id);
      if (message.error) waiter?.reject(new Error(`${label}: ${message.error}`));
      else waiter?.resolve(message.result);
    });
    this.exited = new Promise((resolve) => {
      if (child.exitCode !== null) resolve(child.exitCode);
      else child.once('exit', (code) => resolve(code));
    });
    void this.exited.then(() => {
      for (const waiter of this.pending.values()) waiter.reject(new Error(`${label} exited`));
      this.pending.clear();
    });
  }

  static async start(label: string, kind: TargetKind, options: HubOptions | Record<string, never> = {}) {
    const child = spawn(
      process.execPath,
      ['-r', 'ts-node/register/transpile-only', SCRIPT, kind, JSON.stringify(options)],
      {
        cwd: PROJECT_ROOT,
        // stdout (the hub's JSON log lines, with --log-level) goes to /dev/null; errors to stderr.
        stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
        env: { ...process.env, TS_NODE_PROJECT: join(PROJECT_ROOT, 'tsconfig.json') },
      },
    );
    const info = await new Promise<TargetInfo>((resolve, reject) => {
      const timer = setTimeout(() => {
        child.kill('SIGTERM');
        reject(new Error(`${label} did not start within ${START_TIMEOUT_MS / 1000} s`));
      }, START_TIMEOUT_MS);
      const done = () => clearTimeout(timer);
      child.on('message', (message: TargetReply) => {
        if (message.type === 'ready') {
          done();
          resolve(message.info);
        } else if (message.type === 'failed') {
          done();
          reject(new Error(`${label} failed to start:\n${message.error}`));
        }
      });
      child.once('exit', (code) => {
        done();
        reject(new Error(`${label} exited with code ${code} before it was ready`));
      });
    });
    return new TargetProcess(label, child, info);
  }

  request<T = unknown>(command: Command): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: (v) => resolve(v as T), reject });
      this.child.send({ ...command, id });
    });
  }

  /** Asks the process to clean up and exit; kills it if it has not within 30 s. */
  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    if (this.child.connected) this.child.send({ id: 0, type: 'stop' } satisfies TargetCommand);
    else this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 30_000);
    await this.exited;
    clearTimeout(timer);
  }
}
