/** What a router decides for one request (our API spec's AgentChoiceResult). */
export interface AgentChoiceResult {
  /** The primary agent. */
  agentId: string;
  /** Further agents that run in parallel with the primary, in request order. */
  additionalAgents?: string[];
  reasoning: string;
  /** 0..1; below ROUTING_CONFIDENCE_THRESHOLD the orchestrator asks instead of guessing. */
  confidence: number;
  /** What the built-in router went by: card words alone, or their meaning too (the embedding model). */
  evidence?: 'lexical' | 'semantic';
  /** The agents the router weighed, best first. */
  candidates?: string[];
}

/** One agent's part of an answer (our API spec's AgentResponse). */
export interface AgentResponse {
  agentId: string;
  content: string;
  success: boolean;
  errorMessage?: string;
  executionTimeMs: number;
}

export const ORCHESTRATION_ERROR_CODES = ['ROUTER_FAILURE', 'AGENT_TIMEOUT', 'WORKFLOW_ERROR'] as const;
export type OrchestrationErrorCode = (typeof ORCHESTRATION_ERROR_CODES)[number];

/** The `data` of an orchestrator JSON-RPC error (our API spec's OrchestrationError). */
export interface OrchestrationError {
  errorCode: OrchestrationErrorCode;
  userMessage: string;
  technicalDetails?: string;
  suggestedAction?: string;
}

/** One agent's side of a conversation: the hub-side context (and open task) the orchestrator uses with it. */
export interface AgentThread {
  contextId: string;
  /** Set while the agent waits for input on this task; the next turn continues it. */
  taskId?: string;
}

export interface ConversationTurn {
  role: 'user' | 'agent';
  text: string;
  /** For agent turns: the agents that answered. */
  agents?: string[];
  at: string;
}

/** What the orchestrator is waiting for, if the last turn asked the user something. */
export type PendingInput =
  { kind: 'clarification'; request: string; candidates: string[] } | { kind: 'agent-input'; agentId: string };

/** A conversation as the orchestrator remembers it, kept in the key-value store with a TTL. */
export interface OrchestrationContext {
  /** The A2A contextId. */
  conversationId: string;
  agentThreads: Record<string, AgentThread>;
  previousAgentId?: string;
  /** The last MAX_CONVERSATION_HISTORY turns. */
  history: ConversationTurn[];
  pending?: PendingInput;
}
