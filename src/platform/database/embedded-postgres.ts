import { Logger } from '@nestjs/common';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';

/** PostgreSQL's socket file name for port 5432: clients connect with host=<dir>, port=5432. */
const SOCKET_FILE = '.s.PGSQL.5432';
const LOCK_FILE = 'switchboard.lock';
/** Connections beyond the app's pool, for `npm run keys` / `migration:run` while the server runs. */
const SPARE_CONNECTIONS = 4;
/** Unix socket paths are limited to 107 bytes on Linux. */
const MAX_SOCKET_PATH = 107;
const STOP_TIMEOUT_MS = 10_000;
const WORKER_FILE = join(__dirname, 'pglite-worker.js');

type WorkerMessage =
  | { type: 'ready' }
  | { type: 'initialized' }
  | { type: 'stopped'; error?: string }
  | { type: 'failed'; message: string };

export interface EmbeddedConnection {
  /** Directory holding the socket; pass as `host` to node-postgres. */
  socketDir: string;
  port: 5432;
  user: 'postgres';
  database: 'postgres';
}

export class DataDirInUseError extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(`DATA_DIR ${dataDir} is in use by process ${pid}`);
  }
}

/**
 * An embedded PostgreSQL (PGlite, compiled to WebAssembly) served on a Unix socket inside DATA_DIR,
 * so TypeORM reaches it with its normal `postgres` driver. PGlite runs on a worker thread
 * (pglite-worker.js) so it never blocks the event loop. One process owns a DATA_DIR at a time:
 * a lock file records its pid, and a second process either attaches to the running server's
 * socket (the CLIs do) or is refused.
 */
export class EmbeddedPostgres {
  /** Data directories this process has open: a second open in one process is refused too. */
  private static readonly openHere = new Set<string>();
  private readonly logger = new Logger('EmbeddedPostgres');
  private stopping = false;

  private constructor(
    private readonly dataDir: string,
    private readonly worker: Worker,
  ) {
    worker.on('exit', (code) => {
      if (!this.stopping) this.logger.error(`The embedded database stopped unexpectedly (worker exit code ${code})`);
    });
  }

  static connectionFor(dataDir: string): EmbeddedConnection {
    return { socketDir: dataDir, port: 5432, user: 'postgres', database: 'postgres' };
  }

  /** The pid of a live process that owns this DATA_DIR, if any. */
  static runningOwner(dataDir: string): number | undefined {
    const lockPath = join(dataDir, LOCK_FILE);
    if (!existsSync(lockPath)) return undefined;
    const pid = Number.parseInt(readFileSync(lockPath, 'utf8').trim(), 10);
    if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return undefined;
    return isAlive(pid) ? pid : undefined;
  }

  static async start(dataDir: string, poolSize: number): Promise<EmbeddedPostgres> {
    const socketPath = join(dataDir, SOCKET_FILE);
    if (Buffer.byteLength(socketPath) > MAX_SOCKET_PATH) {
      throw new Error(`DATA_DIR path is too long for a Unix socket (${socketPath.length} > ${MAX_SOCKET_PATH} bytes)`);
    }
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    const owner = EmbeddedPostgres.openHere.has(dataDir) ? process.pid : EmbeddedPostgres.runningOwner(dataDir);
    if (owner !== undefined) throw new DataDirInUseError(dataDir, owner);
    EmbeddedPostgres.openHere.add(dataDir);
    writeFileSync(join(dataDir, LOCK_FILE), `${process.pid}\n`, { mode: 0o600 });
    // A socket left behind by a process that died is stale: nobody owns the lock any more.
    rmSync(socketPath, { force: true });

    const pgDataDir = join(dataDir, 'pglite');
    try {
      if (!existsSync(join(pgDataDir, 'PG_VERSION'))) await initialize(pgDataDir);
    } catch (error) {
      releaseLock(dataDir);
      EmbeddedPostgres.openHere.delete(dataDir);
      throw error;
    }
    const worker = new Worker(WORKER_FILE, {
      workerData: { pgDataDir, socketPath, maxConnections: poolSize + SPARE_CONNECTIONS },
    });
    try {
      const first = await nextMessage(worker);
      if (first.type !== 'ready') throw new Error(`The embedded database failed to start: ${describeFailure(first)}`);
      return new EmbeddedPostgres(dataDir, worker);
    } catch (error) {
      await worker.terminate();
      releaseLock(dataDir);
      EmbeddedPostgres.openHere.delete(dataDir);
      throw error;
    }
  }

  get connection(): EmbeddedConnection {
    return EmbeddedPostgres.connectionFor(this.dataDir);
  }

  /** Closes the socket server and PGlite (flushing it to disk), then ends the worker. */
  async stop(): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    try {
      this.worker.postMessage({ type: 'stop' });
      const reply = await nextMessage(this.worker, STOP_TIMEOUT_MS);
      if (reply.type === 'stopped' && reply.error) this.logger.warn(`Embedded database stop: ${reply.error}`);
    } catch (error) {
      this.logger.warn(`Embedded database did not stop cleanly: ${(error as Error).message}`);
    } finally {
      await this.worker.terminate();
      rmSync(join(this.dataDir, SOCKET_FILE), { force: true });
      releaseLock(this.dataDir);
      EmbeddedPostgres.openHere.delete(this.dataDir);
    }
  }
}

/**
 * Creates a new database directory (initdb) on a worker thread of its own that then ends: an open
 * PGlite keeps the memory initdb grew it to (about 500 MB more than one started on an existing
 * directory), which would count against a container's limit for as long as the server runs.
 */
async function initialize(pgDataDir: string): Promise<void> {
  const worker = new Worker(WORKER_FILE, { workerData: { pgDataDir, initOnly: true } });
  try {
    const reply = await nextMessage(worker);
    if (reply.type !== 'initialized') {
      throw new Error(`The embedded database could not be created: ${describeFailure(reply)}`);
    }
  } finally {
    await worker.terminate();
  }
}

function nextMessage(worker: Worker, timeoutMs?: number): Promise<WorkerMessage> {
  return new Promise((resolve, reject) => {
    const timer = timeoutMs
      ? setTimeout(() => done(() => reject(new Error(`no answer in ${timeoutMs} ms`))), timeoutMs)
      : undefined;
    const onMessage = (message: WorkerMessage) => done(() => resolve(message));
    const onError = (error: Error) => done(() => reject(error));
    const onExit = (code: number) => done(() => reject(new Error(`worker exited with code ${code}`)));
    function done(settle: () => void): void {
      clearTimeout(timer);
      worker.off('message', onMessage).off('error', onError).off('exit', onExit);
      settle();
    }
    worker.on('message', onMessage).on('error', onError).on('exit', onExit);
  });
}

function describeFailure(message: WorkerMessage): string {
  return message.type === 'failed' ? message.message : `unexpected message ${message.type}`;
}

function releaseLock(dataDir: string): void {
  const lockPath = join(dataDir, LOCK_FILE);
  try {
    if (readFileSync(lockPath, 'utf8').trim() === String(process.pid)) rmSync(lockPath, { force: true });
  } catch {
    // Already gone.
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
