import { del, get, post } from './http';

export const SCOPES = ['agents:read', 'agents:write', 'messages', 'tasks', 'internal', 'admin'] as const;

export interface ApiKey {
  id: string;
  name: string;
  owner: string;
  scopes: string[];
  prefix: string;
  source: string;
  status: 'active' | 'expired' | 'revoked';
  created_at: string;
  expires_at: string | null;
  revoked_at: string | null;
  last_used_at: string | null;
}

export interface NewKey {
  name: string;
  scopes: string[];
  owner?: string;
  expires_at?: string;
}

export const listKeys = () => get<ApiKey[]>('/api/keys');
/** The answer's `key` is the only time the key is ever shown. */
export const createKey = (input: NewKey) => post<ApiKey & { key: string }>('/api/keys', input);
export const revokeKey = (id: string) => del<ApiKey>(`/api/keys/${encodeURIComponent(id)}`);
