import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../src/paths';
import { WARM_UP_LIMIT_MS } from '../../src/platform/health/health-checks';
import { freePort } from './test-app';

const MAIN = join(PROJECT_ROOT, 'src', 'main.ts');
const CLI = (name: string) => join(PROJECT_ROOT, 'src', 'cli', `${name}.ts`);
/** The sources run as they are (a fresh clone has no dist/), transpiled on load by ts-node. */
const NODE_ARGS = ['-r', 'ts-node/register'];
/** How long the server's boot may take before its readiness checks exist. */
const BOOT_MS = 30_000;

export interface ProcessResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The server as `npm start` runs it, in its own process, with its output captured. */
export class ServerProcess {
  stdout = '';
  stderr = '';
  private readonly exited: Promise<ProcessResult>;

  private constructor(
    readonly child: ChildProcess,
    readonly httpPort: number,
    readonly grpcPort: number,
  ) {
    child.stdout!.on('data', (chunk: Buffer) => (this.stdout += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (this.stderr += chunk.toString()));
    this.exited = new Promise((resolve) =>
      child.once('exit', (code) => resolve({ code, stdout: this.stdout, stderr: this.stderr })),
    );
  }

  static async start(env: Record<string, string | undefined>): Promise<ServerProcess> {
    const httpPort = await freePort();
    const grpcPort = await freePort();
    const child = spawn(process.execPath, [...NODE_ARGS, MAIN], {
      cwd: PROJECT_ROOT,
      env: childEnv({ HOST: '127.0.0.1', PORT: String(httpPort), GRPC_PORT: String(grpcPort), ...env }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    return new ServerProcess(child, httpPort, grpcPort);
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${this.httpPort}`;
  }

  /**
   * Resolves when /health/ready answers 200; rejects if the process exits first. By default it
   * waits as long as a server may take: its boot (the sources type-checked on load) and then up
   * to WARM_UP_LIMIT_MS for the router's model - on a busy 2-core machine each can take half a
   * minute.
   */
  async ready(timeoutMs = BOOT_MS + WARM_UP_LIMIT_MS): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    let exited = false;
    void this.exited.then(() => (exited = true));
    while (Date.now() < deadline && !exited) {
      const ok = await fetch(`${this.baseUrl}/health/ready`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`server not ready (exited: ${exited})\nstdout:\n${this.stdout}\nstderr:\n${this.stderr}`);
  }

  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<ProcessResult> {
    if (this.child.exitCode === null) this.child.kill(signal);
    return this.exited;
  }

  exit(): Promise<ProcessResult> {
    return this.exited;
  }
}

/** Runs a CLI script (src/cli/<name>.ts) to completion. */
export function runCliScript(
  name: string,
  args: string[],
  env: Record<string, string | undefined>,
): Promise<ProcessResult> {
  const child = spawn(process.execPath, [...NODE_ARGS, CLI(name), ...args], {
    cwd: PROJECT_ROOT,
    env: childEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stdout, stderr })));
}

function childEnv(env: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const merged: Record<string, string | undefined> = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: 'production',
    TS_NODE_TRANSPILE_ONLY: 'true',
    TS_NODE_PROJECT: join(PROJECT_ROOT, 'tsconfig.json'),
    ...env,
  };
  return Object.fromEntries(Object.entries(merged).filter(([, v]) => v !== undefined));
}
