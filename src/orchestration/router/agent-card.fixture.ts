import type { AgentProfile } from '../../a2a/agent-profile';

/**
 * An agent as the router's tests describe it: a name and a line, and, given tags or examples, one
 * skill carrying them (a card with neither is a name and a line only, as many are).
 */
export function agentCard(
  id: string,
  name: string,
  description: string,
  tags: string[] = [],
  examples: string[] = [],
): AgentProfile {
  return {
    id,
    name,
    description,
    version: '1',
    kind: 'remote',
    skills: tags.length || examples.length ? [{ id, name, description, tags, examples }] : [],
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
  };
}
