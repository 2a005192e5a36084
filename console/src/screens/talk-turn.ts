import type { Artifact, StreamEvent } from '../api/a2a';
import { textOf } from '../api/a2a';
import type { RoutingDecision } from '../api/routing-log';

/** One exchange of the conversation, built up from the answer's stream events. */
export interface Turn {
  id: number;
  agent: string;
  text: string;
  /** Set when this message answered an input-required question. */
  answering?: boolean;
  state: string | null;
  taskId?: string;
  contextId?: string;
  reply: string;
  artifacts: Artifact[];
  metadata: Record<string, unknown> | null;
  error: string | null;
  done: boolean;
  decision?: RoutingDecision | null;
}

/** Folds one stream event into the turn. */
export function applyEvent(turn: Turn, event: StreamEvent): Turn {
  const next: Turn = { ...turn, contextId: event.contextId ?? turn.contextId };
  switch (event.kind) {
    case 'message':
      next.reply = [turn.reply, textOf(event.parts)].filter(Boolean).join('\n');
      next.metadata = event.metadata ?? next.metadata;
      if (!next.state) next.state = 'answered';
      break;
    case 'task':
      next.taskId = event.id;
      next.state = event.status.state;
      next.artifacts = event.artifacts ?? next.artifacts;
      next.metadata = event.metadata ?? next.metadata;
      if (event.status.message) next.reply = textOf(event.status.message.parts);
      break;
    case 'status-update':
      next.taskId = event.taskId;
      next.state = event.status.state;
      next.metadata = event.metadata ?? next.metadata;
      if (event.status.message) next.reply = textOf(event.status.message.parts);
      break;
    case 'artifact-update': {
      next.taskId = event.taskId;
      const others = turn.artifacts.filter((a) => a.artifactId !== event.artifact.artifactId);
      const before = turn.artifacts.find((a) => a.artifactId === event.artifact.artifactId);
      const artifact =
        event.append && before ? { ...before, parts: [...before.parts, ...event.artifact.parts] } : event.artifact;
      next.artifacts = [...others, artifact];
      break;
    }
  }
  return next;
}

/** The turn waits for an answer to a question of the agent's. */
export function asksForInput(turn: Turn): boolean {
  return turn.done && turn.state === 'input-required' && !!turn.taskId;
}
