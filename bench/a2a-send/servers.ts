/** The server processes a run needs, and where each cell sends its requests. */
import { DEFAULT_AGENT_ID } from '../../src/a2a/agent-profile';
import type { ProcessStats } from '../support/child-process';
import type { LoadTarget } from './load';
import type { Options } from './options';
import { Backend, Cell, orchestratorText } from './plan';
import { TargetProcess } from './target-client';
import { ORCHESTRATED_VARIANT, Variant, VARIANT_INFO } from './variants';

export interface Servers {
  /** The SDK's own server, serving every chosen variant. */
  reference?: TargetProcess;
  /** The same server again: called directly, and registered in each hub as remote agents. */
  remote?: TargetProcess;
  /** The least a Node proxy does (bare-relay.ts), in front of `remote`. */
  relay?: TargetProcess;
  /** The least a proxy built from the SDK does (sdk-relay.ts), in front of `remote`. */
  sdkRelay?: TargetProcess;
  /** One hub per backend, each hosting the same agents. */
  hubs: Partial<Record<Backend, TargetProcess>>;
}

/** Boots every server the chosen cells need, before anything is measured. */
export async function startServers(options: Options, servers: Servers): Promise<void> {
  const { targets, variants } = options;
  const wants = (...names: Options['targets']) => names.some((n) => targets.includes(n));
  if (wants('reference')) servers.reference = await TargetProcess.start('reference echo server', 'echo', { variants });
  if (wants('remote', 'relay', 'sdk-relay', 'proxy', 'orchestrator')) {
    servers.remote = await TargetProcess.start('remote echo server', 'echo', { variants });
  }
  if (wants('relay')) {
    servers.relay = await TargetProcess.start('bare relay', 'relay', { upstream: servers.remote!.info.baseUrl });
  }
  if (wants('sdk-relay')) {
    servers.sdkRelay = await TargetProcess.start('SDK relay', 'sdk-relay', {
      upstream: servers.remote!.info.baseUrl,
      variants,
    });
  }
  if (!wants('hub', 'proxy', 'orchestrator')) return;
  const remoteVariants = new Set<Variant>(wants('proxy') ? variants : []);
  if (wants('orchestrator')) remoteVariants.add(ORCHESTRATED_VARIANT);
  for (const backend of options.backends) {
    servers.hubs[backend] = await TargetProcess.start(
      `hub (${backend})`,
      'hub',
      {
        databaseUrl: backend === 'real' ? options.databaseUrl : undefined,
        redisUrl: backend === 'real' ? options.redisUrl : undefined,
        logLevel: options.logLevel,
        env: options.hubEnv,
        localVariants: wants('hub') ? variants : [],
        remoteOrigin: servers.remote?.info.baseUrl,
        remoteVariants: [...remoteVariants],
      },
      options.hubNodeOptions,
    );
  }
}

/** Below this share of a core (over SETTLE_WINDOW_MS), a server is idle. */
const IDLE_CORES = 0.05;
const SETTLE_WINDOW_MS = 500;
const SETTLE_LIMIT_MS = 60_000;

/**
 * Waits until every server is idle: a hub is ready before its start-up work is done (the router's
 * model embeds the hosted cards and the everyday requests on a worker thread for seconds), and
 * that work would run beside the first cells. Gives up after SETTLE_LIMIT_MS, naming the busy
 * ones (the run's report lists servers that used the CPU beside a cell).
 */
export async function settle(servers: Servers): Promise<void> {
  const all = allServers(servers);
  const cpu = () =>
    Promise.all(all.map((s) => s.request<ProcessStats>({ type: 'stats' }).then((stats) => stats.cpuMicros)));
  const started = Date.now();
  let before = await cpu();
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, SETTLE_WINDOW_MS));
    const now = await cpu();
    const busy = all.filter((_, i) => (now[i] - before[i]) / 1000 / SETTLE_WINDOW_MS > IDLE_CORES);
    if (!busy.length) return;
    if (Date.now() - started > SETTLE_LIMIT_MS) {
      console.log(`(still busy after ${SETTLE_LIMIT_MS / 1000} s: ${busy.map((s) => s.label).join(', ')}) `);
      return;
    }
    before = now;
  }
}

/** Every process started. */
export function allServers(servers: Servers): TargetProcess[] {
  return [servers.reference, servers.remote, servers.relay, servers.sdkRelay, ...Object.values(servers.hubs)].filter(
    (s): s is TargetProcess => s !== undefined,
  );
}

export async function stopServers(servers: Servers): Promise<void> {
  await Promise.all(allServers(servers).map((s) => s.stop().catch(() => undefined)));
}

/** The load for a cell, and the processes serving it: the one answering the client first. */
export function loadTarget(cell: Cell, servers: Servers): { involved: TargetProcess[]; target: LoadTarget } {
  const info = VARIANT_INFO[cell.variant];
  const echo = (server: TargetProcess | undefined) => ({
    involved: [server!],
    target: {
      origin: server!.info.baseUrl,
      path: `${info.basePath}/v1`,
      headers: {},
      rateLimited: false,
      answer: info.answer,
    },
  });
  const viaHub = (agentId: string, upstream: boolean, extra: Partial<LoadTarget> = {}) => {
    const hub = servers.hubs[cell.backend!]!;
    return {
      involved: upstream ? [hub, servers.remote!] : [hub],
      target: {
        origin: hub.info.baseUrl,
        path: `/api/agents/${agentId}/v1`,
        headers: { 'x-api-key': hub.info.apiKey! },
        rateLimited: true,
        answer: info.answer,
        ...extra,
      },
    };
  };
  switch (cell.target) {
    case 'reference':
      return echo(servers.reference);
    case 'remote':
      return echo(servers.remote);
    case 'relay':
      return { ...echo(servers.relay), involved: [servers.relay!, servers.remote!] };
    case 'sdk-relay':
      return { ...echo(servers.sdkRelay), involved: [servers.sdkRelay!, servers.remote!] };
    case 'hub':
      return viaHub(info.localId, false);
    case 'proxy':
      return viaHub(info.remoteId, true);
    case 'orchestrator':
      // The orchestrator answers with a Message holding the routed agent's text, whatever that agent answered with.
      return viaHub(DEFAULT_AGENT_ID, true, { text: orchestratorText, answer: 'message' });
  }
}
