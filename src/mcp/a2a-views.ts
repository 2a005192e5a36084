import { Artifact, Message, Part, Role, Task, TaskState } from '@a2a-js/sdk';
import { stateName } from '../a2a/task-state-names';

const FINAL = new Set([
  TaskState.TASK_STATE_COMPLETED,
  TaskState.TASK_STATE_FAILED,
  TaskState.TASK_STATE_CANCELED,
  TaskState.TASK_STATE_REJECTED,
]);

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
