/**
 * Servers under test run in child processes of their own, so they never share an event loop
 * with the load generator. The parent starts one with `BenchProcess.start` (a TypeScript script
 * run through ts-node) and drives it over IPC; the script calls `runChild` with how to start its
 * server. The child answers `ready` with what it reports of itself, then `stats`, `profile-start`
 * and `profile-stop` requests, and on `stop` (or SIGINT/SIGTERM, or when the parent goes away)
 * closes its server - which removes what it made - and exits.
 */
import { ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Profiler } from '../profiler';

export type ChildCommand =
  | { id: number; type: 'stats'; reset?: boolean }
  | { id: number; type: 'profile-start' }
  | { id: number; type: 'profile-stop'; path: string }
  | { id: number; type: 'stop' };

export type ChildReply<Info> =
  | { type: 'ready'; info: Info }
  | { type: 'failed'; error: string }
  | { type: 'reply'; id: number; result?: unknown; error?: string };

/** What `stats` answers for every child, with what its server adds. */
export interface ProcessStats {
  /** CPU time used so far (user + system), µs. */
  cpuMicros: number;
  rssBytes: number;
  /** Highest resident set size sampled (every 20 ms) since the last `stats` with `reset`. */
  peakRssBytes: number;
  heapUsedBytes: number;
  /**
   * Read and write system calls made so far (Linux `/proc/self/io` syscr + syscw: socket reads and
   * writes included, epoll waits not); undefined elsewhere.
   */
  ioCalls?: number;
  /**
   * CPU time of the main thread alone (Linux `/proc/self/task/<pid>/stat`, 10 ms ticks), µs: the
   * rest of `cpuMicros` is worker threads - the embedded hub's PGlite and router model, libuv's pool.
   */
  mainThreadCpuMicros?: number;
}

/** A started server, as its child script hands it to `runChild`. */
export interface RunningServer<Info> {
  info: Info;
  close(): Promise<void>;
  /** Added to the process's own `stats`. */
  stats?(): Record<string, unknown>;
}

type Request = ChildCommand extends infer C ? (C extends { id: number } ? Omit<C, 'id'> : never) : never;

const PROJECT_ROOT = join(__dirname, '..', '..');

export interface StartOptions {
  /** Environment overrides for the child; `undefined` removes a variable. */
  env?: Record<string, string | undefined>;
  startTimeoutMs?: number;
}

/** A server under test in its own process, driven over IPC. */
export class BenchProcess<Info extends { pid: number }> {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  private readonly exited: Promise<number | null>;

  private constructor(
    readonly label: string,
    private readonly child: ChildProcess,
    readonly info: Info,
  ) {
    child.on('message', (message: ChildReply<Info>) => {
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

  /** Runs `script` with `args`; resolves with the child once it reports `ready`. */
  static async start<Info extends { pid: number }>(
    label: string,
    script: string,
    args: string[],
    options: StartOptions = {},
  ): Promise<BenchProcess<Info>> {
    const startTimeoutMs = options.startTimeoutMs ?? 180_000;
    const env: NodeJS.ProcessEnv = { ...process.env, TS_NODE_PROJECT: join(PROJECT_ROOT, 'tsconfig.json') };
    for (const [name, value] of Object.entries(options.env ?? {})) {
      if (value === undefined) delete env[name];
      else env[name] = value;
    }
    const child = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', script, ...args], {
      cwd: PROJECT_ROOT,
      // stdout (log lines, with --log-level) goes to /dev/null; errors to stderr.
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
      env,
    });
    const info = await new Promise<Info>((resolve, reject) => {
      const timer = setTimeout(() => {
        child.kill('SIGTERM');
        reject(new Error(`${label} did not start within ${startTimeoutMs / 1000} s`));
      }, startTimeoutMs);
      child.on('message', (message: ChildReply<Info>) => {
        if (message.type === 'ready') {
          clearTimeout(timer);
          resolve(message.info);
        } else if (message.type === 'failed') {
          clearTimeout(timer);
          reject(new Error(`${label} failed to start:\n${message.error}`));
        }
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`${label} exited with code ${code} before it was ready`));
      });
    });
    return new BenchProcess(label, child, info);
  }

  get pid(): number {
    return this.info.pid;
  }

  request<T = unknown>(command: Request): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: (v) => resolve(v as T), reject });
      this.child.send({ ...command, id });
    });
  }

  /** Asks the process to close its server and exit; kills it if it has not within 30 s. */
  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    if (this.child.connected) this.child.send({ id: 0, type: 'stop' } satisfies ChildCommand);
    else this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 30_000);
    await this.exited;
    clearTimeout(timer);
  }
}

/** The child's side: starts the server, reports `ready` (or `failed`), then serves the parent's requests. */
export async function runChild<Info>(start: () => Promise<RunningServer<Info>>): Promise<void> {
  const send = (message: ChildReply<Info>) => process.send?.(message);
  let running: RunningServer<Info>;
  try {
    running = await start();
  } catch (error) {
    const failed: ChildReply<Info> = {
      type: 'failed',
      error: error instanceof Error ? (error.stack ?? error.message) : String(error),
    };
    // Exit once the message is out: exiting at once could drop it.
    if (process.send) process.send(failed, () => process.exit(1));
    else process.exit(1);
    return;
  }
  let peakRss = process.memoryUsage.rss();
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage.rss())), 20);
  sampler.unref();
  const stats = (reset: boolean): ProcessStats & Record<string, unknown> => {
    const cpu = process.cpuUsage();
    const rss = process.memoryUsage.rss();
    const result = {
      cpuMicros: cpu.user + cpu.system,
      rssBytes: rss,
      peakRssBytes: Math.max(peakRss, rss),
      heapUsedBytes: process.memoryUsage().heapUsed,
      ioCalls: ioCalls(),
      mainThreadCpuMicros: mainThreadCpuMicros(),
      ...running.stats?.(),
    };
    if (reset) peakRss = rss;
    return result;
  };
  const profiler = new Profiler();
  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= running
      .close()
      .catch((error: unknown) => console.error(error))
      .then(() => process.exit(0));
    return stopping;
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
  process.on('disconnect', () => void stop());
  process.on('message', (command: ChildCommand) => {
    if (command.type === 'stop') return void stop();
    const work = (async () => {
      switch (command.type) {
        case 'stats':
          return stats(command.reset ?? false);
        case 'profile-start':
          return profiler.start();
        case 'profile-stop':
          return profiler.stop(command.path);
      }
    })();
    work.then(
      (result) => send({ type: 'reply', id: command.id, result }),
      (error: unknown) => send({ type: 'reply', id: command.id, error: String(error) }),
    );
  });
  send({ type: 'ready', info: running.info });
}

/** CPU time of this process's main thread so far (Linux: user + system ticks of its task), or undefined. */
function mainThreadCpuMicros(): number | undefined {
  try {
    const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces): state is field 3, utime 14, stime 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    return Number.isFinite(ticks) ? ticks * (1e6 / CLOCK_TICKS_PER_SECOND) : undefined;
  } catch {
    return undefined;
  }
}

/** Linux's USER_HZ, the unit of /proc's CPU times. */
const CLOCK_TICKS_PER_SECOND = 100;

/** This process's read + write system calls so far (Linux), or undefined. */
function ioCalls(): number | undefined {
  try {
    const io = readFileSync('/proc/self/io', 'utf8');
    const count = (name: string) => Number(new RegExp(`^${name}: (\\d+)$`, 'm').exec(io)?.[1]);
    const calls = count('syscr') + count('syscw');
    return Number.isFinite(calls) ? calls : undefined;
  } catch {
    return undefined;
  }
}
