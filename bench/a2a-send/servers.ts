/** The server processes a run needs, and where each cell sends its requests. */
import { DEFAULT_AGENT_ID } from '../../src/a2a/agent-profile';
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
