import {
  ServerCallContext,
  ServerCallContextBuilder,
  ServerCallContextBuilderOptions,
  STATE_HEADERS_KEY,
  User,
} from '@a2a-js/sdk/server';
import { A2aTransport, noteTransport } from './call-state';

/** Key in ServerCallContext.state holding the id of the agent a call is for. */
export const AGENT_ID_STATE_KEY = 'switchboard.agentId';

/** A call context for an in-process call (the orchestrator's, the REST conversation API's): v1.0, no headers. */
export function callContextFor(agentId: string, user: User | undefined): ServerCallContext {
  return callContext(agentId, 'in-process', { user, requestedVersion: '1.0', headers: {}, extensions: undefined });
}

/**
 * Builds the SDK's call context for calls arriving over `transport`, with the id of the agent the
 * call is for in its state. The tenant is not kept: it only routes gRPC calls, and keeping it
 * would scope tasks by transport.
 */
export function contextFor(
  agentId: (options: ServerCallContextBuilderOptions) => string,
  transport: A2aTransport,
): ServerCallContextBuilder {
  return (options) => callContext(agentId(options), transport, options);
}

function callContext(
  agentId: string,
  transport: A2aTransport,
  options: ServerCallContextBuilderOptions,
): ServerCallContext {
  const context = new ServerCallContext({
    user: options.user,
    requestedExtensions: options.extensions,
    requestedVersion: options.requestedVersion,
    state: new Map<string, unknown>([
      [STATE_HEADERS_KEY, options.headers],
      [AGENT_ID_STATE_KEY, agentId],
    ]),
  });
  noteTransport(context, transport);
  return context;
}
