import type { Principal } from '../platform/auth/principal';
import { DomainError } from '../platform/errors/domain-error';
import { ErrorCode } from '../platform/errors/error-code';
import type { TaskEntity } from './entities/task.entity';
import { isUuid } from './task-batch';

/** Callers see their own tasks; admins see every owner's. */
export function canSee(principal: Principal, task: Pick<TaskEntity, 'userId'>): boolean {
  return principal.isAdmin || task.userId === principal.owner;
}

export function taskNotFound(id: string): DomainError {
  return new DomainError(ErrorCode.NOT_FOUND, `Task not found: ${id}`, { details: { task_id: id } });
}

/** The task id a call names (`task_id`, or `id`, or the named alternative): a string, else -32602. */
export function taskIdParam(params: Record<string, unknown>, ...names: string[]): string {
  const keys = names.length > 0 ? names : ['task_id', 'id'];
  const key = keys.find((name) => params[name] !== undefined && params[name] !== null);
  const value = key === undefined ? undefined : params[key];
  if (typeof value !== 'string' || value.trim() === '') {
    throw DomainError.validation([{ field: keys[0], reason: 'is required: the id of a task' }]);
  }
  return value.trim();
}

/** Loads a task the caller may see, or NOT_FOUND (another owner's task is not found either). */
export async function visibleTask(
  principal: Principal,
  id: string,
  find: (id: string) => Promise<TaskEntity | null>,
): Promise<TaskEntity> {
  const task = isUuid(id) ? await find(id) : null;
  if (!task || !canSee(principal, task)) throw taskNotFound(id);
  return task;
}
