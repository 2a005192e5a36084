/**
 * One server under test, in its own process so it never shares an event loop (or a core's
 * time slice, as far as the OS allows) with the load generator. Started by main.ts as
 *   node -r ts-node/register/transpile-only target-process.ts <echo|hub> '<json options>'
 * and driven over the IPC channel: it answers `ready` once listening, then `stats`,
 * `profile-start` and `profile-stop` requests. It shuts down (removing what it created) on
 * `stop`, on SIGINT/SIGTERM, or when the parent goes away.
 */
import { Profiler } from '../profiler';
import { startEchoServer } from './echo-agent';
import { HubOptions, startHub } from './hub';

export type TargetKind = 'echo' | 'hub';

/** What a target process reports once it listens. */
export interface TargetInfo {
  pid: number;
  baseUrl: string;
  /** The key to send (hub only). */
  apiKey?: string;
  setup?: Record<string, string | number | boolean>;
}

/** What `stats` answers. */
export interface TargetStats {
  /** CPU time this process has used so far (user + system), in microseconds. */
  cpuMicros: number;
  rssBytes: number;
  /** Echo servers: message/send requests received, by A2A-Version header. */
  requestsByVersion?: Record<string, number>;
  /** TCP connections accepted so far. */
  connections?: number;
}

export type TargetCommand =
  | { id: number; type: 'stats' }
  | { id: number; type: 'profile-start' }
  | { id: number; type: 'profile-stop'; path: string }
  | { id: number; type: 'stop' };

export type TargetReply =
  | { type: 'ready'; info: TargetInfo }
  | { type: 'failed'; error: string }
  | { type: 'reply'; id: number; result?: unknown; error?: string };

interface Running {
  info: TargetInfo;
  stats(): TargetStats;
  close(): Promise<void>;
}

async function start(kind: TargetKind, options: HubOptions): Promise<Running> {
  if (kind === 'echo') {
    const server = await startEchoServer();
    return {
      info: { pid: process.pid, baseUrl: server.baseUrl },
      stats: () => ({ ...usage(), requestsByVersion: server.requestsByVersion(), connections: server.connections() }),
      close: () => server.close(),
    };
  }
  const hub = await startHub(options);
  return {
    info: { pid: process.pid, baseUrl: hub.baseUrl, apiKey: hub.apiKey, setup: hub.setup },
    stats: () => ({ ...usage(), connections: hub.connections() }),
    close: () => hub.close(),
  };
}

function usage(): TargetStats {
  const cpu = process.cpuUsage();
  return { cpuMicros: cpu.user + cpu.system, rssBytes: process.memoryUsage.rss() };
}

async function main(): Promise<void> {
  const send = (message: TargetReply) => process.send?.(message);
  const kind = process.argv[2] as TargetKind;
  const options = JSON.parse(process.argv[3] ?? '{}') as HubOptions;
  let running: Running;
  try {
    running = await start(kind, options);
  } catch (error) {
    const failed: TargetReply = {
      type: 'failed',
      error: error instanceof Error ? (error.stack ?? error.message) : String(error),
    };
    // Exit once the message is out: exiting at once could drop it.
    if (process.send) process.send(failed, () => process.exit(1));
    else process.exit(1);
    return;
  }
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
  process.on('message', (command: TargetCommand) => {
    if (command.type === 'stop') return void stop();
    const work = (async () => {
      switch (command.type) {
        case 'stats':
          return running.stats();
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

void main();
