import { Task, TaskState } from '@a2a-js/sdk';

const TERMINAL: ReadonlySet<TaskState> = new Set([
  TaskState.TASK_STATE_COMPLETED,
  TaskState.TASK_STATE_FAILED,
  TaskState.TASK_STATE_CANCELED,
  TaskState.TASK_STATE_REJECTED,
]);

export function isTerminal(state: TaskState | undefined): boolean {
  return state !== undefined && TERMINAL.has(state);
}

/**
 * Combines a task another writer stored (`stored`) with the snapshot being saved (`incoming`),
 * so concurrent writers on two replicas lose nothing: messages and artifacts either side added
 * survive (matched by id, in the stored order with new ones after; the incoming version of a
 * shared artifact wins), the later status wins, and once a task has a terminal status it keeps
 * it: the first terminal status is final (a cancel reported to a caller is never undone).
 */
export function mergeTasks(stored: Task, incoming: Task): Task {
  const history = [...stored.history];
  const seenMessages = new Set(history.map((m) => m.messageId));
  for (const message of incoming.history) if (!seenMessages.has(message.messageId)) history.push(message);

  const artifacts = [...incoming.artifacts];
  const seenArtifacts = new Set(artifacts.map((a) => a.artifactId));
  for (const artifact of stored.artifacts) if (!seenArtifacts.has(artifact.artifactId)) artifacts.push(artifact);

  return {
    ...incoming,
    history,
    artifacts,
    status: laterStatus(stored.status, incoming.status),
    metadata: stored.metadata || incoming.metadata ? { ...stored.metadata, ...incoming.metadata } : undefined,
  };
}

function laterStatus(stored: Task['status'], incoming: Task['status']): Task['status'] {
  if (!stored) return incoming;
  if (!incoming) return stored;
  if (isTerminal(stored.state)) return stored;
  if (isTerminal(incoming.state)) return incoming;
  const storedAt = Date.parse(stored.timestamp ?? '');
  const incomingAt = Date.parse(incoming.timestamp ?? '');
  return Number.isFinite(storedAt) && Number.isFinite(incomingAt) && storedAt > incomingAt ? stored : incoming;
}
