import { Artifact, Message, Part, Role, Task, TaskState } from '@a2a-js/sdk';

const FINAL = new Set([
  TaskState.TASK_STATE_COMPLETED,
  TaskState.TASK_STATE_FAILED,
  TaskState.TASK_STATE_CANCELED,
  TaskState.TASK_STATE_REJECTED,
]);

/** The A2A name of a state: submitted, working, input-required, completed, failed, canceled, … */
export function stateName(state: TaskState | undefined): string {
  if (state === undefined) return 'unknown';
  const name = TaskState[state];
  return name
    ? name
        .replace(/^TASK_STATE_/, '')
        .toLowerCase()
        .replace(/_/g, '-')
    : 'unknown';
}

/** The same, from a stored ProtoJSON name such as TASK_STATE_INPUT_REQUIRED. */
export function stateNameOf(stored: string): string {
  return stored
    .replace(/^TASK_STATE_/, '')
    .toLowerCase()
    .replace(/_/g, '-');
}

export function isFinal(state: TaskState | undefined): boolean {
  return state !== undefined && FINAL.has(state);
}

/** The text parts of a message or artifact, joined. */
export function partsText(parts: Part[]): string {
  return parts
    .flatMap((p) => (p.content?.$case === 'text' ? [p.content.value] : []))
    .join('\n')
    .trim();
}

/**
 * What the agent said in a task, wherever it put it: its artifacts (ADK style), its last agent
 * message in the history (LangGraph style), or its status message.
 */
export function taskText(task: Task): string {
  const artifacts = task.artifacts.map((a) => partsText(a.parts)).filter(Boolean);
  if (artifacts.length > 0) return artifacts.join('\n');
  const fromAgent = [...task.history].reverse().find((m) => m.role === Role.ROLE_AGENT);
  const history = fromAgent ? partsText(fromAgent.parts) : '';
  if (history) return history;
  return task.status?.message ? partsText(task.status.message.parts) : '';
}

export interface TaskView {
  kind: 'task';
  task_id: string;
  context_id: string;
  status: { state: string; message?: string; timestamp?: string };
  text: string;
  artifacts: { artifact_id: string; name: string; text: string }[];
  history_length: number;
}

export interface MessageView {
  kind: 'message';
  message_id: string;
  context_id: string;
  text: string;
}

export function taskView(task: Task): TaskView {
  const statusMessage = task.status?.message ? partsText(task.status.message.parts) : '';
  return {
    kind: 'task',
    task_id: task.id,
    context_id: task.contextId,
    status: {
      state: stateName(task.status?.state),
      ...(statusMessage ? { message: statusMessage } : {}),
      ...(task.status?.timestamp ? { timestamp: task.status.timestamp } : {}),
    },
    text: taskText(task),
    artifacts: task.artifacts.map((a: Artifact) => ({
      artifact_id: a.artifactId,
      name: a.name,
      text: partsText(a.parts),
    })),
    history_length: task.history.length,
  };
}

export function messageView(message: Message): MessageView {
  return {
    kind: 'message',
    message_id: message.messageId,
    context_id: message.contextId,
    text: partsText(message.parts),
  };
}
