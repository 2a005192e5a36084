/** What a key may do. `admin` implies every other scope. */
export const SCOPES = ['agents:read', 'agents:write', 'messages', 'tasks', 'internal', 'admin'] as const;
export type Scope = (typeof SCOPES)[number];

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}
