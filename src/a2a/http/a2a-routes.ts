import { DomainError } from '../../platform/errors/domain-error';
import { ErrorCode } from '../../platform/errors/error-code';
import { DEFAULT_AGENT_ID } from '../agent-profile';

/** `/api/agents/{id}/v1` (JSON-RPC) or `/api/agents/{id}/json[/...]` (HTTP+JSON), as express would match them. */
const AGENT_ROUTE = /^(\/api\/agents\/([^/?]+))(\/v1\/?|\/json(?:\/[^?]*)?)(\?.*)?$/i;
/** The orchestrator's JSON-RPC endpoint at the path existing deployments use. */
const LEGACY_ORCHESTRATOR = /^(\/a2a\/lucia-orchestrator)\/?(\?.*)?$/;
/** POST / - JSON-RPC shared with the task-tree API: which one answers depends on the body. */
const ROOT = /^\/(\?.*)?$/;

export interface AgentRoute {
  agentId: string;
  /** Why the request cannot be served (an id that is not valid percent-encoding), to answer in the route's shape. */
  problem?: DomainError;
  /** Where the agent's endpoints are mounted, as the client sent it: `/api/agents/{id as sent}`. */
  base: string;
  /** The path within the agent (`/v1`, `/json/...`) and the query string. */
  rest: string;
  /** The route pattern requests are counted under. */
  pattern: string;
  jsonRpc: boolean;
}

/** POST /, which A2A shares with the task-tree API; see `routeOfRoot`. */
export const SHARED_ROOT = 'shared-root';

/**
 * The A2A endpoint a request addresses, if any: an agent's own endpoints (any method), or
 * `POST /a2a/lucia-orchestrator` (the orchestrator's JSON-RPC); SHARED_ROOT for `POST /`. An id
 * that is not valid percent-encoding makes a route with a `problem`.
 */
export function agentRouteOf(method: string, url: string): AgentRoute | typeof SHARED_ROOT | undefined {
  const match = AGENT_ROUTE.exec(url);
  if (match) {
    const [, base, rawId, path, query = ''] = match;
    const v1 = path.toLowerCase().startsWith('/v1');
    const route: AgentRoute = {
      agentId: rawId,
      base,
      rest: `${v1 ? '/v1' : path}${query}`,
      pattern: v1 ? '/api/agents/:id/v1' : '/api/agents/:id/json',
      // JSON-RPC is POSTed: anything else sent to /v1 is answered as any unknown route.
      jsonRpc: v1 && method === 'POST',
    };
    try {
      route.agentId = decodeURIComponent(rawId);
    } catch {
      route.problem = new DomainError(
        ErrorCode.INVALID_REQUEST,
        'The agent id in the path is not valid percent-encoding',
      );
    }
    return route;
  }
  if (method !== 'POST') return undefined;
  const legacy = LEGACY_ORCHESTRATOR.exec(url);
  if (legacy) return orchestratorRoute(legacy[1], legacy[2] ?? '', '/a2a/lucia-orchestrator');
  return ROOT.test(url) ? SHARED_ROOT : undefined;
}

/** POST / with this body: the orchestrator's JSON-RPC, unless every call in it is the task-tree API's (`tasks.*`). */
export function routeOfRoot(url: string, body: unknown): AgentRoute | undefined {
  const methods = (Array.isArray(body) ? body : [body]).map((call) => (call as { method?: unknown } | null)?.method);
  const taskTree =
    methods.length > 0 && methods.every((method) => typeof method === 'string' && method.startsWith('tasks.'));
  if (taskTree) return undefined;
  return orchestratorRoute('', url.slice(1), '/');
}

function orchestratorRoute(base: string, query: string, pattern: string): AgentRoute {
  return { agentId: DEFAULT_AGENT_ID, base, rest: `/v1${query}`, pattern, jsonRpc: true };
}
