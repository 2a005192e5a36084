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

/** The Postgres row of a task as written at `at` (`json`: the task as written, kept whole once it is final). */
export function indexRowOf(agentId: string, owner: string, task: Task, json: unknown, at: number): TaskStateRow {
  const state = task.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED;
  return {
    agentId,
    owner,
    taskId: task.id,
    contextId: task.contextId,
    state: taskStateToJSON(state),
    at: new Date(at),
    finalTask: isTerminal(state) ? json : undefined,
  };
}
