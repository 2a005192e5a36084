import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { Principal } from '../platform/auth/principal';
import { DomainError } from '../platform/errors/domain-error';
import { ErrorCode } from '../platform/errors/error-code';
import type { TaskInputDto, TaskUpdateDto } from './dto/task-input.dto';
import { TaskTreeNode, toTreeNode } from './dto/task.view';
import { notYetRun, TaskEntity, TaskStatus } from './entities/task.entity';
import { ExecutionRepository } from './engine/execution.repository';
import { methodOf, TaskExecutorRegistry } from './executors/task-executor.registry';
import { canSee, taskNotFound, visibleTask } from './task-access';
import { circular, executorNotFound, isUuid, planBatch } from './task-batch';
import { describeCycle, findCycle } from './task-graph';
import { TaskChanges, TaskCursor, TaskListFilter, TaskRepository, TaskTransaction } from './task.repository';

export const LIST_DEFAULT_LIMIT = 100;
export const LIST_MAX_LIMIT = 1_000;

export interface ListRequest {
  status?: TaskStatus;
  userId?: string;
  parentId?: string;
  rootOnly?: boolean;
  limit?: number;
  offset?: number;
  /** Keyset paging (TaskRepository.list): the rows after this one. */
  after?: TaskCursor;
}

/**
 * The task-tree service (apflow `tasks.*` but execute/cancel): creating trees, reading, updating,
 * deleting and copying tasks, with the rules that keep trees sound. Callers act on their own
 * tasks unless they are admins; another owner's task is not found.
 */
@Injectable()
export class TaskTreeService {
  constructor(
    private readonly tasks: TaskRepository,
    private readonly executions: ExecutionRepository,
    private readonly executors: TaskExecutorRegistry,
  ) {}

  /** Creates a tree (or a subtree under an existing task); returns the rows, parents first. */
  async create(principal: Principal, inputs: TaskInputDto[]): Promise<TaskEntity[]> {
    const owner = this.ownerFor(principal, inputs);
    const existing = await this.referencedTrees(principal, inputs);
    return this.tasks.transaction(async (tx) => {
      const rows = planBatch(inputs, {
        owner,
        existing,
        hasExecutor: (method) => this.executors.has(method),
        now: new Date(),
      });
      const root = rows[0];
      if (root.parentId) {
        const parent = await tx.lock(root.parentId);
        if (!parent) throw taskNotFound(root.parentId);
        if (parent.userId !== owner)
          throw DomainError.validation([{ field: 'parent_id', reason: 'belongs to another owner' }]);
        await this.assertNotRunning(tx, root.rootId);
      }
      const taken = await tx.statuses(rows.map((row) => row.id));
      if (taken.size > 0)
        throw new DomainError(ErrorCode.CONFLICT, `Task id already exists: ${[...taken.keys()][0]}`, {
          details: { field: 'id', reason: 'already exists' },
        });
      await tx.insert(rows);
      return rows;
    });
  }

  get(principal: Principal, id: string): Promise<TaskEntity> {
    return visibleTask(principal, id, (taskId) => this.tasks.findById(taskId));
  }

  async update(
    principal: Principal,
    id: string,
    changes: TaskUpdateDto,
    expectedVersion?: number,
  ): Promise<TaskEntity> {
    return this.tasks.transaction(async (tx) => {
      const task = await visibleTask(principal, id, (taskId) => tx.lock(taskId));
      if (expectedVersion !== undefined && expectedVersion !== task.version)
        throw new DomainError(
          ErrorCode.PRECONDITION_FAILED,
          `Task ${id} is at version ${task.version}, not ${expectedVersion}`,
          {
            details: { field: 'version', reason: 'is stale', version: task.version },
          },
        );
      if (task.status === 'in_progress')
        throw new DomainError(ErrorCode.INVALID_STATE, `Task ${id} is executing; update it when it has finished`, {
          details: { status: task.status },
        });
      // A pending task of an executing tree may be picked up at any moment: its inputs are not ours to change.
      await this.assertNotRunning(tx, task.rootId);
      const method = methodOf(changes.schemas);
      if (changes.schemas && changes.schemas.method !== undefined && typeof changes.schemas.method !== 'string')
        throw DomainError.validation([{ field: 'schemas.method', reason: 'must be a string' }]);
      if (method && !this.executors.has(method)) throw executorNotFound(method, 'schemas.method');
      const update: TaskChanges = {};
      for (const field of [
        'name',
        'priority',
        'inputs',
        'params',
        'schemas',
        'status',
        'result',
        'error',
        'progress',
      ] as const) {
        if (changes[field] !== undefined) (update as Record<string, unknown>)[field] = changes[field];
      }
      if (changes.dependencies !== undefined) update.dependencies = await this.checkedDependencies(tx, task, changes);
      if (Object.keys(update).length === 0) return task;
      if (!(await tx.update(task.id, task.version, update)))
        throw new DomainError(ErrorCode.CONCURRENT_UPDATE, `Task ${id} changed concurrently; read it again`);
      return (await tx.findById(task.id))!;
    });
  }

  /** Deletes a pending task without children or dependents, or (cascade) its pending subtree. */
  async delete(principal: Principal, id: string, cascade: boolean): Promise<string[]> {
    return this.tasks.transaction(async (tx) => {
      const task = await visibleTask(principal, id, (taskId) => tx.lock(taskId));
      const ids = await tx.subtreeIds(task.id);
      if (ids.length > 1 && !cascade)
        throw new DomainError(
          ErrorCode.INVALID_STATE,
          `Task ${id} has ${ids.length - 1} descendant(s); pass cascade: true to delete them too`,
          {
            details: {
              field: 'cascade',
              reason: 'is needed to delete a task with children',
              descendants: ids.length - 1,
            },
          },
        );
      const statuses = await tx.statuses(ids);
      const notPending = ids.filter((taskId) => statuses.get(taskId) !== 'pending');
      if (notPending.length > 0)
        throw new DomainError(
          ErrorCode.INVALID_STATE,
          `Only pending tasks can be deleted; ${notPending.length} task(s) are not pending`,
          {
            details: { task_ids: notPending.slice(0, 20) },
          },
        );
      const dependents = await tx.dependentsOf(ids, ids);
      if (dependents.length > 0)
        throw new DomainError(
          ErrorCode.INVALID_STATE,
          `Task ${id} is a dependency of ${dependents
            .map((d) => `"${d.name}"`)
            .slice(0, 5)
            .join(', ')}`,
          {
            details: { dependents: dependents.map((d) => d.id).slice(0, 20) },
          },
        );
      await this.assertNotRunning(tx, task.rootId);
      await tx.delete(ids);
      return ids;
    });
  }

  async list(
    principal: Principal,
    request: ListRequest,
  ): Promise<{ rows: TaskEntity[]; total: number; limit: number; offset: number; withChildren: Set<string> }> {
    if (request.userId !== undefined && !principal.isAdmin && request.userId !== principal.owner)
      throw new DomainError(ErrorCode.FORBIDDEN, "Only admins may list another owner's tasks", {
        details: { field: 'user_id', reason: 'is not yours' },
      });
    const filter: TaskListFilter = {
      userId: principal.isAdmin ? request.userId : principal.owner,
      status: request.status,
      parentId: request.parentId,
      rootOnly: request.rootOnly ?? false,
      limit: request.limit ?? LIST_DEFAULT_LIMIT,
      offset: request.offset ?? 0,
      after: request.after,
    };
    const { rows, total } = await this.tasks.list(filter);
    return {
      rows,
      total,
      limit: filter.limit,
      offset: filter.offset,
      withChildren: await this.tasks.withChildren(rows.map((r) => r.id)),
    };
  }

  /**
   * A page of the list by keyset: the rows after `after` (none: from the start), and the cursor
   * of the next page when another follows (one row more is read to know).
   */
  async pageAfter(principal: Principal, request: ListRequest & { limit: number }) {
    const page = await this.list(principal, { ...request, limit: request.limit + 1 });
    const rows = page.rows.slice(0, request.limit);
    const last = rows.at(-1);
    const next: TaskCursor | undefined =
      last && page.rows.length > request.limit ? { createdAt: last.createdAt, id: last.id } : undefined;
    return { rows, total: page.total, withChildren: page.withChildren, next };
  }

  /** The whole tree the task belongs to, from its root. */
  async tree(principal: Principal, id: string): Promise<TaskTreeNode> {
    const task = await this.get(principal, id);
    return toTreeNode(task.rootId, await this.tasks.tree(task.rootId));
  }

  async children(principal: Principal, id: string): Promise<{ rows: TaskEntity[]; withChildren: Set<string> }> {
    const task = await this.get(principal, id);
    const rows = await this.tasks.children(task.id);
    return { rows, withChildren: await this.tasks.withChildren(rows.map((r) => r.id)) };
  }

  /**
   * Copies a task (with `withChildren`, its subtree) as new pending tasks: same name, inputs,
   * params, schemas, priority and dependencies (those inside the copied set point to the copies).
   * A root's copy is a new tree; another task's copy is a sibling in the same tree.
   */
  async copy(principal: Principal, id: string, withChildren: boolean): Promise<TaskEntity> {
    return this.tasks.transaction(async (tx) => {
      const original = await visibleTask(principal, id, (taskId) => tx.findById(taskId));
      const ids = withChildren ? await tx.subtreeIds(original.id) : [original.id];
      const sources = new Map((await tx.findByIds(ids)).map((task) => [task.id, task]));
      const copyOf = new Map(ids.map((taskId) => [taskId, randomUUID()]));
      const rootId = original.parentId ? original.rootId : copyOf.get(original.id)!;
      if (original.parentId) await this.assertNotRunning(tx, original.rootId);
      const now = new Date();
      const rows: TaskEntity[] = ids.map((taskId) => {
        const source = sources.get(taskId)!;
        return {
          ...source,
          id: copyOf.get(taskId)!,
          rootId,
          parentId: taskId === original.id ? original.parentId : copyOf.get(source.parentId!)!,
          dependencies: source.dependencies.map((d) => ({ ...d, id: copyOf.get(d.id) ?? d.id })),
          ...notYetRun(now),
        };
      });
      await tx.insert(rows);
      return rows[0];
    });
  }

  async assertNotRunning(tx: TaskTransaction, rootId: string): Promise<void> {
    const running = await this.executions.running(tx.manager, rootId);
    if (running)
      throw new DomainError(
        ErrorCode.INVALID_STATE,
        `The tree is executing (execution ${running.id}); try again when it has finished`,
        {
          details: { execution_id: running.id },
        },
      );
  }

  private ownerFor(principal: Principal, inputs: TaskInputDto[]): string {
    const requested = new Set(inputs.map((input) => input.user_id).filter((u): u is string => u !== undefined));
    if (requested.size > 1)
      throw DomainError.validation([{ field: 'user_id', reason: 'must be the same for every task of a tree' }]);
    const [userId] = [...requested];
    if (userId === undefined || userId === principal.owner) return principal.owner;
    if (!principal.isAdmin)
      throw new DomainError(ErrorCode.FORBIDDEN, 'Only admins may create tasks for another owner', {
        details: { field: 'user_id', reason: 'is not yours' },
      });
    return userId;
  }

  /** Existing tasks the batch refers to (parents, dependencies), with their whole trees. */
  private async referencedTrees(principal: Principal, inputs: TaskInputDto[]): Promise<Map<string, TaskEntity>> {
    const names = new Set(inputs.flatMap((input) => [input.id, input.name]));
    const refs = new Set<string>();
    for (const input of inputs) {
      if (input.parent_id && !names.has(input.parent_id)) refs.add(input.parent_id);
      for (const dependency of input.dependencies ?? []) {
        const ref = dependency.id ?? dependency.name;
        if (ref && !names.has(ref)) refs.add(ref);
      }
    }
    const found = (await this.tasks.findByIds([...refs].filter(isUuid))).filter((task) => canSee(principal, task));
    const existing = new Map<string, TaskEntity>();
    for (const rootId of new Set(found.map((task) => task.rootId))) {
      for (const task of await this.tasks.tree(rootId)) existing.set(task.id, task);
    }
    return existing;
  }

  /** New dependencies of a task: same tree, the task and its subtree pending, no cycle. */
  private async checkedDependencies(tx: TaskTransaction, task: TaskEntity, changes: TaskUpdateDto) {
    const subtree = await tx.subtreeIds(task.id);
    const statuses = await tx.statuses(subtree);
    if (subtree.some((id) => statuses.get(id) !== 'pending'))
      throw new DomainError(
        ErrorCode.INVALID_STATE,
        'Dependencies can change only while the task and its subtree are pending',
        {
          details: { field: 'dependencies', reason: 'the task or a descendant is not pending' },
        },
      );
    const tree = await tx.tree(task.rootId);
    const byId = new Map(tree.map((t) => [t.id, t]));
    const byName = new Map(tree.map((t) => [t.name, t]));
    const dependencies = (changes.dependencies ?? []).map((dependency, index) => {
      const ref = dependency.id ?? dependency.name;
      const target = ref === undefined ? undefined : (byId.get(ref) ?? byName.get(ref));
      if (!target)
        throw DomainError.validation([
          { field: `dependencies[${index}]`, reason: `refers to no task of this tree: ${ref ?? '(no id or name)'}` },
        ]);
      return { id: target.id, required: dependency.required ?? true };
    });
    byId.set(task.id, { ...task, dependencies });
    const children = new Map<string, string[]>();
    for (const t of byId.values())
      if (t.parentId) children.set(t.parentId, [...(children.get(t.parentId) ?? []), t.id]);
    const cycle = findCycle(byId.keys(), (id) => [
      ...(byId.get(id)?.dependencies.map((d) => d.id) ?? []),
      ...(children.get(id) ?? []),
    ]);
    if (cycle) throw circular(describeCycle(cycle, (id) => byId.get(id)?.name));
    return dependencies;
  }
}
