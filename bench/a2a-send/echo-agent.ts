import { AgentCard } from '@a2a-js/sdk';
import { A2ARequestHandler, DefaultRequestHandler } from '@a2a-js/sdk/server';
import { jsonRpcHandler, UserBuilder } from '@a2a-js/sdk/server/express';
import express from 'express';
import { echoExecutor } from './echo-executors';
import { listen, Listening } from './listener';
import { RecentTaskStore } from './recent-task-store';
import { ORCHESTRATED_VARIANT, ORCHESTRATOR_WORD, Variant, VARIANT_INFO, VARIANTS } from './variants';

/**
 * A variant's card (A2A v1.0 shape), served over JSON-RPC for v1.0 and v0.3 at `<baseUrl>/v1`.
 * The orchestrated variant's card alone carries ORCHESTRATOR_WORD, so the orchestrator can route
 * to it while the other echoes are hosted in the same hub.
 */
export function echoCard(baseUrl: string, variant: Variant = 'message'): AgentCard {
  const jsonRpc = (protocolVersion: string) => ({
    url: `${baseUrl}/v1`,
    protocolBinding: 'JSONRPC',
    protocolVersion,
    tenant: '',
  });
  const routed = variant === ORCHESTRATED_VARIANT;
  return {
    name: VARIANT_INFO[variant].name,
    description: 'Answers every message with its own text',
    version: '1.0.0',
    supportedInterfaces: [jsonRpc('1.0'), jsonRpc('0.3')],
    provider: undefined,
    capabilities: { streaming: VARIANT_INFO[variant].streaming, pushNotifications: false, extensions: [] },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [
      {
        id: 'echo',
        name: 'Echo',
        description: 'Repeats what it is told',
        tags: routed ? ['echo', 'benchmark', ORCHESTRATOR_WORD] : ['echo', 'benchmark'],
        examples: routed ? [`${ORCHESTRATOR_WORD} hello`] : ['hello'],
        inputModes: [],
        outputModes: [],
        securityRequirements: [],
      },
    ],
    signatures: [],
  };
}

export interface EchoServer extends Listening {
  /** Requests received at each variant's `<base>/v1`, by A2A-Version header ("none" when absent). */
  requestsByVersion(): Partial<Record<Variant, Record<string, number>>>;
}

/**
 * The reference: the SDK's own server on plain express - per variant a DefaultRequestHandler
 * with the SDK's InMemoryTaskStore (in two generations: RecentTaskStore) and the SDK's
 * jsonRpcHandler with v0.3 compatibility and no authentication - serving each variant's echo at
 * `<basePath>/v1`, with its card at `<basePath>/.well-known/agent-card.json` (so the hub can
 * register each one by its base URL).
 */
export async function startEchoServer(
  variants: readonly Variant[] = VARIANTS,
  host = '127.0.0.1',
): Promise<EchoServer> {
  const app = express();
  app.disable('x-powered-by');
  const counts: Partial<Record<Variant, Record<string, number>>> = {};
  const listening = await listen(app, host);
  const origin = listening.origin;
  for (const variant of variants) {
    const base = VARIANT_INFO[variant].basePath;
    const card = echoCard(`${origin}${base}`, variant);
    const handler = new DefaultRequestHandler(card, new RecentTaskStore(), echoExecutor(variant));
    const seen: Record<string, number> = (counts[variant] = {});
    app.use(`${base}/v1`, (req, _res, next) => {
      const version = req.headers['a2a-version'];
      const key = typeof version === 'string' && version ? version : 'none';
      seen[key] = (seen[key] ?? 0) + 1;
      next();
    });
    mountJsonRpc(app, `${base}/v1`, handler);
    app.get(`${base}/.well-known/agent-card.json`, (_req, res) => {
      res.json(AgentCard.toJSON(card));
    });
  }
  return { ...listening, requestsByVersion: () => structuredClone(counts) };
}

/** The SDK's JSON-RPC endpoint for `handler` at `path`, without auth, v0.3 clients accepted too. */
export function mountJsonRpc(app: express.Express, path: string, handler: A2ARequestHandler): void {
  app.use(
    path,
    jsonRpcHandler({
      requestHandler: handler,
      userBuilder: UserBuilder.noAuthentication,
      legacyCompat: { enabled: true },
    }),
  );
}
