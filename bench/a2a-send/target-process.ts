/**
 * One server under test, in its own process so it never shares an event loop (or a core's
 * time slice, as far as the OS allows) with the load generator. Started by main.ts as
 *   node -r ts-node/register/transpile-only target-process.ts <echo|hub> '<json options>'
 * and driven over IPC by bench/support/child-process.ts (`ready`, `stats`, profiles, `stop`).
 */
import { ProcessStats, runChild, RunningServer } from '../support/child-process';
import { startBareRelay } from './bare-relay';
import { startEchoServer } from './echo-agent';
import { startSdkRelay } from './sdk-relay';
import { HubOptions, startHub } from './hub';
import type { Variant } from './variants';

export type TargetKind = 'echo' | 'relay' | 'sdk-relay' | 'hub';

/** What an echo server process serves (default: every variant); where a relay sends what it gets. */
export interface EchoOptions {
  variants?: Variant[];
  upstream?: string;
}

/** What a target process reports once it listens. */
export interface TargetInfo {
  pid: number;
  /** http://127.0.0.1:<port> (an echo server serves each variant under its base path). */
  baseUrl: string;
  /** The key to send (hub only). */
  apiKey?: string;
  setup?: Record<string, string | number | boolean>;
}

/** What `stats` answers. */
export interface TargetStats extends ProcessStats {
  /** Echo servers: message/send requests received per variant, by A2A-Version header. */
  requestsByVersion?: Partial<Record<Variant, Record<string, number>>>;
  /** TCP connections accepted so far. */
  connections?: number;
}

async function start(kind: TargetKind, options: HubOptions & EchoOptions): Promise<RunningServer<TargetInfo>> {
  if (kind === 'echo') {
    const server = await startEchoServer(options.variants);
    return {
      info: { pid: process.pid, baseUrl: server.origin },
      stats: () => ({ requestsByVersion: server.requestsByVersion(), connections: server.connections() }),
      close: () => server.close(),
    };
  }
  if (kind === 'relay' || kind === 'sdk-relay') {
    const relay =
      kind === 'relay'
        ? await startBareRelay(options.upstream!)
        : await startSdkRelay(options.upstream!, options.variants ?? []);
    return {
      info: { pid: process.pid, baseUrl: relay.origin },
      stats: () => ({ connections: relay.connections() }),
      close: () => relay.close(),
    };
  }
  const hub = await startHub(options);
  return {
    info: { pid: process.pid, baseUrl: hub.baseUrl, apiKey: hub.apiKey, setup: hub.setup },
    stats: () => ({ connections: hub.connections() }),
    close: () => hub.close(),
  };
}

if (require.main === module) {
  void runChild(() =>
    start(process.argv[2] as TargetKind, JSON.parse(process.argv[3] ?? '{}') as HubOptions & EchoOptions),
  );
}
