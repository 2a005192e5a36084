import type { AgentProfile, AgentSkillProfile } from '../../a2a/agent-profile';

/**
 * What the hub advertises for a remote agent, taken from the agent's own card (v0.3 or v1.0
 * JSON; the fields used here are named alike in both). Endpoints and security are the hub's.
 */
export function remoteProfile(id: string, card: Record<string, unknown>): AgentProfile {
  return {
    id,
    kind: 'remote',
    name: text(card.name) || id,
    description: text(card.description),
    version: text(card.version) || '0.0.0',
    skills: list(card.skills).flatMap((raw): AgentSkillProfile[] => {
      const skill = object(raw);
      if (!skill) return [];
      return [
        {
          id: text(skill.id) || text(skill.name),
          name: text(skill.name) || text(skill.id),
          description: text(skill.description),
          tags: strings(skill.tags),
          examples: strings(skill.examples),
          inputModes: strings(skill.inputModes),
          outputModes: strings(skill.outputModes),
        },
      ];
    }),
    defaultInputModes: nonEmpty(strings(card.defaultInputModes), ['text/plain']),
    defaultOutputModes: nonEmpty(strings(card.defaultOutputModes), ['text/plain']),
    documentationUrl: text(card.documentationUrl) || undefined,
    iconUrl: text(card.iconUrl) || undefined,
  };
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function strings(value: unknown): string[] {
  return list(value).filter((v): v is string => typeof v === 'string');
}

function object(value: unknown): Record<string, unknown> | undefined {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

function nonEmpty(values: string[], fallback: string[]): string[] {
  return values.length ? values : fallback;
}
