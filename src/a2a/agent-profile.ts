/** A skill as the hub advertises it, whichever protocol version a card is rendered in. */
export interface AgentSkillProfile {
  id: string;
  name: string;
  description: string;
  tags: string[];
  examples: string[];
  inputModes?: string[];
  outputModes?: string[];
}

/**
 * What the hub knows about an agent it hosts, independent of protocol: the card builder turns it
 * into v1.0 and v0.3 cards with the hub's own endpoints and security.
 */
export interface AgentProfile {
  /** Slug used in URLs, gRPC tenants and `x-agent-id`. */
  id: string;
  name: string;
  description: string;
  version: string;
  kind: 'local' | 'remote';
  skills: AgentSkillProfile[];
  defaultInputModes: string[];
  defaultOutputModes: string[];
  documentationUrl?: string;
  iconUrl?: string;
}

/** The agent gRPC callers reach without a tenant or `x-agent-id`. */
export const DEFAULT_AGENT_ID = 'orchestrator';
