import type { A2ARequestHandler, AgentExecutor } from '@a2a-js/sdk/server';
import type { Router } from 'express';
import type { AgentProfile } from '../agent-profile';

export interface AgentDefinition {
  profile: AgentProfile;
  executor: AgentExecutor;
  /**
   * The executor has published all its events by the time `execute` returns, and nothing can
   * reach its task meanwhile (a remote agent that does not stream to the hub; the orchestrator,
   * whose agents run within its turn): a blocking send that starts a task is then answered
   * without the SDK's event machinery (DirectSend).
   */
  settledOnReturn?: boolean;
  /** Wraps the agent's request handler (after the hub's own guard), e.g. to turn results into errors. */
  wrapHandler?: (handler: A2ARequestHandler) => A2ARequestHandler;
}

/** One agent the hub serves: its SDK request handler, its HTTP endpoints, its executor. */
export class HostedAgent {
  constructor(
    readonly profile: AgentProfile,
    readonly handler: A2ARequestHandler,
    /** Its HTTP endpoints, mounted as express mounts them: JSON-RPC at `/v1`, HTTP+JSON under `/json`. */
    readonly router: Router,
    /** The agent's own code: the orchestrator runs it directly (AgentRunner). */
    readonly executor: AgentExecutor,
  ) {}

  get id(): string {
    return this.profile.id;
  }
}
