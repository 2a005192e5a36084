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
