import type { OrchestrationError, OrchestrationErrorCode } from './orchestration.types';

/** JSON-RPC codes of the orchestrator's errors: server range, clear of A2A's -32001..-32009 and the platform's. */
export const ORCHESTRATION_JSON_RPC_CODES: Record<OrchestrationErrorCode, number> = {
  ROUTER_FAILURE: -32061,
  AGENT_TIMEOUT: -32062,
  WORKFLOW_ERROR: -32063,
};

/** A request the orchestrator could not complete, with what to tell the user. */
export class OrchestrationFailure extends Error {
  override name = 'OrchestrationFailure';

  constructor(
    readonly error: OrchestrationError,
    /** For AGENT_TIMEOUT: what the agents that did answer said. */
    readonly partial?: { text: string; agentsUsed: string[] },
  ) {
    super(error.userMessage);
  }
}
