import type { AgentAuthMode } from '../entities/agent.entity';

/** The headers that carry the hub's credential for a remote agent. */
export function credentialHeaders(
  mode: AgentAuthMode,
  header: string | null | undefined,
  secret: string | undefined,
): Record<string, string> {
  if (mode === 'none' || !secret) return {};
  return mode === 'bearer' ? { Authorization: `Bearer ${secret}` } : { [header ?? 'X-Api-Key']: secret };
}
