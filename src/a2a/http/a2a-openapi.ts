import type { PathsObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';

const agentId = {
  name: 'id',
  in: 'path' as const,
  required: true,
  description: 'The hosted agent (`orchestrator` is the default agent)',
  schema: { type: 'string' },
};

const security: Record<string, string[]>[] = [{ 'api-key': [] }, { bearer: [] }];

const refusals = {
  '401': { description: 'No API key, or an unknown, expired or revoked one (a JSON-RPC error on /v1)' },
  '403': { description: 'The key lacks the `messages` scope' },
  '429': { description: 'The `conversation` rate limit (per key and agent) is used up; see Retry-After' },
};

/** An operation of the HTTP+JSON binding (GET for reads such as tasks/{id}, POST for the rest). */
function rest(operationId: string) {
  return {
    tags: ['a2a'],
    summary: 'A2A HTTP+JSON (REST) binding, e.g. POST message:send, GET tasks/{taskId}',
    description:
      'The A2A HTTP+JSON binding under /api/agents/{id}/json: v0.3 paths (`/v1/message:send`, ...) ' +
      'without an `A2A-Version` header, v1.0 paths with `A2A-Version: 1.0`.',
    operationId,
    parameters: [
      agentId,
      {
        name: 'operation',
        in: 'path' as const,
        required: true,
        description: 'The binding path',
        schema: { type: 'string' },
      },
    ],
    security,
    responses: { '200': { description: 'The operation result' }, ...refusals },
  };
}

/**
 * The OpenAPI description of the endpoints A2aHttpLane serves ahead of Nest's router (so Nest's
 * document generator never sees them). The A2A specification defines their bodies.
 */
export function a2aOpenApiPaths(): PathsObject {
  return {
    '/api/agents/{id}/v1': { post: jsonRpc('a2aJsonRpc', [agentId]) },
    '/api/agents/{id}/json/{operation}': { get: rest('a2aRestGet'), post: rest('a2aRestPost') },
    '/a2a/lucia-orchestrator': {
      post: {
        ...jsonRpc('a2aOrchestratorJsonRpc', []),
        summary: "The orchestrator's A2A JSON-RPC 2.0 at the path existing deployments use",
      },
    },
  };
}

/** A JSON-RPC endpoint of an agent. */
function jsonRpc(operationId: string, parameters: (typeof agentId)[]) {
  return {
    tags: ['a2a'],
    summary: 'A2A JSON-RPC 2.0: message/send, message/stream, tasks/get, tasks/cancel, ...',
    description:
      'v0.3 without an `A2A-Version` header, v1.0 with `A2A-Version: 1.0`. Every answer carries ' +
      'X-RateLimit-Limit/Remaining/Reset. message/stream and tasks/resubscribe answer with ' +
      'server-sent events. The orchestrator answers a request it could not complete with error ' +
      '-32061 (ROUTER_FAILURE), -32062 (AGENT_TIMEOUT) or -32063 (WORKFLOW_ERROR), its `data` the ' +
      'OrchestrationError (v1.0: an ErrorInfo whose metadata holds it).',
    operationId,
    parameters,
    security,
    requestBody: {
      required: true,
      content: { 'application/json': { schema: { type: 'object', required: ['jsonrpc', 'method'] } } },
    },
    responses: {
      '200': { description: 'A JSON-RPC response: `result`, or `error` with an A2A or JSON-RPC code' },
      ...refusals,
    },
  };
}
