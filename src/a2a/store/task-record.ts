import { Task, TaskState, taskStateToJSON } from '@a2a-js/sdk';
import type { TaskStateRow } from './a2a-task.repository';
import { isTerminal } from './task-merge';

/**
 * How an A2A task is kept in the key-value store (`a2a:task:{agent}:{owner}:{taskId}`): the task
 * (ProtoJSON), whatever conversation context the agent attached, and when the record expires.
 * The store's etag versions it; writers compare-and-set on it.
 */
export interface TaskPersistenceRecord {
  taskId: string;
  agentId: string;
  owner: string;
  task: unknown;
  /** Orchestration state an agent keeps with the task (none for plain agents). */
  context: unknown;
  expiresAtUtc: string;
}

export function taskRecordKey(agentId: string, owner: string, taskId: string): string {
  return `a2a:task:${agentId}:${owner}:${taskId}`;
}

/**
 * The key-value flag set of task records whose latest state is not in PostgreSQL yet: flagged with
 * the record's write, cleared once its row is written (A2aTaskRepository), so records a replica
 * died before indexing are found and indexed by another (TaskIndexRecovery).
 */
export const UNINDEXED_TASKS = 'a2a:tasks:unindexed';

/**
 * The Postgres row of a task as written at `at` (`json`: the task as written, kept whole once it
 * is final; `text`: the same as JSON text, when the caller has it).
 */
export function indexRowOf(
  agentId: string,
  owner: string,
  task: Task,
  json: unknown,
  at: number,
  text?: string,
): TaskStateRow {
  const state = task.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED;
  const final = isTerminal(state);
  return {
    agentId,
    owner,
    taskId: task.id,
    contextId: task.contextId,
    state: taskStateToJSON(state),
    at: new Date(at),
    finalTask: final ? json : undefined,
    finalTaskText: final ? text : undefined,
  };
}

/**
 * A record's JSON text, as JSON.stringify writes the record, with the task's JSON text spliced in
 * as it is: the writer keeps that text for the task's archive row, so the task is turned to text
 * once per write, not twice.
 */
export function recordText(record: Omit<TaskPersistenceRecord, 'task'>, taskText: string): string {
  const { taskId, agentId, owner, context, expiresAtUtc } = record;
  return (
    `{"taskId":${JSON.stringify(taskId)},"agentId":${JSON.stringify(agentId)},"owner":${JSON.stringify(owner)},` +
    `"task":${taskText},"context":${JSON.stringify(context ?? null)},"expiresAtUtc":${JSON.stringify(expiresAtUtc)}}`
  );
}
