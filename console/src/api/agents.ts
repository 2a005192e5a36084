import { del, get, post } from './http';

export interface Skill {
  id: string;
  name: string;
  description?: string;
  tags?: string[];
  examples?: string[];
}

/** An A2A v0.3 card as GET /api/agents lists it. */
export interface AgentCard {
  name: string;
  description?: string;
  url: string;
  version?: string;
  protocolVersion?: string;
  preferredTransport?: string;
  additionalInterfaces?: { url: string; transport: string }[];
  capabilities?: { streaming?: boolean; pushNotifications?: boolean };
  skills?: Skill[];
}

export interface AgentRecord {
  agent_id: string;
  name: string;
  kind: 'local' | 'remote';
  base_url: string;
  status: 'connected' | 'unreachable' | 'disabled';
  card: Record<string, unknown>;
  auth_mode: string;
  last_seen_at: string | null;
  created_at: string;
}

export interface ValidationReport {
  name: string | null;
  url: string | null;
  protocol_version: string | null;
  version_valid: boolean;
  has_skills: boolean;
  skill_count: number;
  streaming: boolean;
  push_notifications: boolean;
  validation: 'passed' | 'warnings' | 'failed';
  problems: { severity: 'error' | 'warning'; path: string; message: string }[];
  card_url: string;
}

/** The hub's id of an agent, from its card's URL (…/api/agents/<id>/…). */
export function agentIdOf(card: AgentCard): string | null {
  const match = /\/api\/agents\/([^/]+)/.exec(card.url);
  return match ? decodeURIComponent(match[1]) : null;
}

export const listCards = () => get<AgentCard[]>('/api/agents');
export const getAgent = (id: string) => get<AgentRecord>(`/api/agents/${encodeURIComponent(id)}`);
export const validateAgent = (baseUrl: string) => post<ValidationReport>('/api/agents/validate', { base_url: baseUrl });
export const registerAgent = (baseUrl: string, id?: string) =>
  post<AgentRecord>('/api/agents', { base_url: baseUrl, ...(id ? { id } : {}) });
export const refreshAgent = (id: string) => post<AgentRecord>(`/api/agents/${encodeURIComponent(id)}/refresh`);
export const deleteAgent = (id: string) => del<void>(`/api/agents/${encodeURIComponent(id)}`);
