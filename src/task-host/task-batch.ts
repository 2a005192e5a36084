import { isUUID } from 'class-validator';
import { randomUUID } from 'node:crypto';
import { FieldProblem, DomainError } from '../platform/errors/domain-error';
import { ErrorCode } from '../platform/errors/error-code';
import { validateInput } from '../platform/validation/validate-input';
import { DependencyInputDto, MAX_TASKS_PER_BATCH, TaskInputDto } from './dto/task-input.dto';
import { notYetRun, TaskDependency, TaskEntity } from './entities/task.entity';
import { methodOf } from './executors/task-executor.registry';
import { describeCycle, findCycle } from './task-graph';

/** Task ids are UUIDs: anything else cannot name a task (and must not reach a uuid column). */
export function isUuid(value: string): boolean {
  return isUUID(value);
}

/**
 * The task list of tasks.create / tasks.execute: a bare array, `{tasks: [...]}`, or one task.
 * Each is checked against TaskInputDto; problems name the task (`tasks[2].name`).
 */
export function parseTaskList(params: unknown, field = 'tasks'): TaskInputDto[] {
  const list = Array.isArray(params)
    ? params
    : isObject(params) && Array.isArray(params.tasks)
      ? params.tasks
      : isObject(params) && params.name !== undefined
        ? [params]
        : undefined;
  if (!list) throw DomainError.validation([{ field, reason: 'must be a task or a non-empty array of tasks' }]);
  if (list.length === 0) throw DomainError.validation([{ field, reason: 'must contain at least one task' }]);
  if (list.length > MAX_TASKS_PER_BATCH)
    throw DomainError.validation([{ field, reason: `must contain at most ${MAX_TASKS_PER_BATCH} tasks` }]);
  const problems: FieldProblem[] = [];
  const tasks = list.map((item, index) => {
    const at = `${field}[${index}]`;
    if (!isObject(item)) {
      problems.push({ field: at, reason: 'must be an object' });
      return undefined;
    }
    try {
      return validateInput(TaskInputDto, { ...item, dependencies: normalizeDependencies(item.dependencies) });
    } catch (error) {
      problems.push(...prefixed(error, at));
      return undefined;
    }
  });
  if (problems.length > 0) throw DomainError.validation(problems);
  return tasks as TaskInputDto[];
}

/** apflow accepts bare strings as dependencies; they mean `{id: <string>}`. */
export function normalizeDependencies(value: unknown): unknown {
  if (!Array.isArray(value)) return value;
  return value.map((dependency) => (typeof dependency === 'string' ? { id: dependency } : dependency));
}

/** What a batch may refer to outside itself. */
export interface BatchContext {
  owner: string;
  /** The existing task the batch's root is created under, if any (already checked visible). */
  existing: Map<string, TaskEntity>;
  hasExecutor(method: string): boolean;
  now: Date;
}

/**
 * Turns a validated batch into rows: ids assigned, parents and dependencies resolved by id or by
 * name within the batch (or to existing tasks of the same tree), exactly one root, no cycles
 * (dependencies and parent-after-children together), every executor known.
 */
export function planBatch(inputs: TaskInputDto[], context: BatchContext): TaskEntity[] {
  const problems: FieldProblem[] = [];
  const ids = inputs.map((input) => input.id ?? randomUUID());
  const byId = new Map<string, number>();
  const byName = new Map<string, number>();
  inputs.forEach((input, index) => {
    if (byId.has(ids[index])) problems.push({ field: `tasks[${index}].id`, reason: 'is used twice in this batch' });
    byId.set(ids[index], index);
    if (byName.has(input.name))
      problems.push({ field: `tasks[${index}].name`, reason: `"${input.name}" is used twice in this batch` });
    byName.set(input.name, index);
    if (input.schemas && input.schemas.method !== undefined && typeof input.schemas.method !== 'string')
      problems.push({ field: `tasks[${index}].schemas.method`, reason: 'must be a string' });
  });
  if (problems.length > 0) throw DomainError.validation(problems);

  const resolveInBatch = (ref: string): number | undefined => byId.get(ref) ?? byName.get(ref);
  const parents: (number | TaskEntity | null)[] = inputs.map((input, index) => {
    if (input.parent_id === undefined) return null;
    const inBatch = resolveInBatch(input.parent_id);
    if (inBatch !== undefined) return inBatch;
    const existing = context.existing.get(input.parent_id);
    if (existing) return existing;
    problems.push({
      field: `tasks[${index}].parent_id`,
      reason: `refers to no task of yours or of this batch: ${input.parent_id}`,
    });
    return null;
  });
  if (problems.length > 0) throw DomainError.validation(problems);

  const roots = parents.flatMap((parent, index) => (typeof parent === 'number' ? [] : [index]));
  if (roots.length !== 1) {
    if (roots.length === 0) throwCycle(parents as (number | null)[], inputs);
    throw DomainError.validation([
      {
        field: 'tasks',
        reason: `must form one tree (one task without a parent in the batch); found ${roots.length}: ${roots
          .slice(0, 5)
          .map((i) => inputs[i].name)
          .join(', ')}`,
      },
    ]);
  }
  const rootIndex = roots[0];
  const rootParent = parents[rootIndex] as TaskEntity | null;
  const treeId = rootParent ? rootParent.rootId : ids[rootIndex];
  // Every task must reach the root through its parents; otherwise parent links loop.
  const depthOf = new Map<number, number>([[rootIndex, 0]]);
  for (let index = 0; index < inputs.length; index++) {
    const path: number[] = [];
    const onPath = new Set<number>();
    let at: number = index;
    while (!depthOf.has(at)) {
      if (onPath.has(at)) throwCycle(parents as (number | null)[], inputs, at);
      path.push(at);
      onPath.add(at);
      at = parents[at] as number;
    }
    let depth = depthOf.get(at)!;
    for (const visited of path.reverse()) depthOf.set(visited, ++depth);
  }

  const dependencies: TaskDependency[][] = inputs.map((input, index) =>
    (input.dependencies ?? []).flatMap((dependency: DependencyInputDto, position) => {
      const field = `tasks[${index}].dependencies[${position}]`;
      const ref = dependency.id ?? dependency.name;
      if (ref === undefined) {
        problems.push({ field, reason: 'needs an id or a name' });
        return [];
      }
      const inBatch = resolveInBatch(ref);
      if (inBatch !== undefined) return [{ id: ids[inBatch], required: dependency.required ?? true }];
      const existing = context.existing.get(ref);
      if (existing && existing.rootId === treeId) return [{ id: existing.id, required: dependency.required ?? true }];
      problems.push({
        field,
        reason: existing ? 'refers to a task of another tree' : `refers to no task of this tree: ${ref}`,
      });
      return [];
    }),
  );
  if (problems.length > 0) throw DomainError.validation(problems);

  // Waits-for edges: a task waits for its dependencies, a parent for its children.
  const childrenOf = new Map<string, string[]>();
  parents.forEach((parent, index) => {
    const parentId = typeof parent === 'number' ? ids[parent] : parent?.id;
    if (!parentId) return;
    const list = childrenOf.get(parentId);
    if (list) list.push(ids[index]);
    else childrenOf.set(parentId, [ids[index]]);
  });
  const ancestorsOutside = rootParent ? ancestorIds(rootParent, context.existing) : new Set<string>();
  const cycle = findCycle(ids, (id) => {
    const index = byId.get(id);
    if (index === undefined) return [];
    const own = dependencies[index].map((d) => d.id);
    // A dependency on an existing ancestor waits for a task that waits for this one.
    const intoAncestors = own.filter((d) => ancestorsOutside.has(d));
    if (intoAncestors.length > 0)
      return [...own.filter((d) => !ancestorsOutside.has(d)), ...intoAncestors.map(() => id)];
    return [...own, ...(childrenOf.get(id) ?? [])];
  });
  if (cycle) {
    const names = (id: string) => {
      const index = byId.get(id);
      return index === undefined ? context.existing.get(id)?.name : inputs[index].name;
    };
    throw circular(describeCycle(cycle, names));
  }

  for (let index = 0; index < inputs.length; index++) {
    const method = methodOf(inputs[index].schemas);
    if (method && !context.hasExecutor(method)) throw executorNotFound(method, `tasks[${index}].schemas.method`);
  }

  const rows = inputs.map((input, index) => {
    const parent = parents[index];
    return {
      id: ids[index],
      rootId: treeId,
      parentId: typeof parent === 'number' ? ids[parent] : (parent?.id ?? null),
      userId: context.owner,
      name: input.name,
      priority: input.priority ?? 2,
      inputs: input.inputs ?? {},
      params: input.params ?? {},
      schemas: input.schemas ?? {},
      dependencies: dependencies[index],
      ...notYetRun(context.now),
    } satisfies TaskEntity;
  });
  // Parents before children, as the parent_id foreign key wants them inserted.
  const order = inputs.map((_, index) => index).sort((a, b) => depthOf.get(a)! - depthOf.get(b)!);
  return order.map((index) => rows[index]);
}

export function circular(cycle: string): DomainError {
  return new DomainError(ErrorCode.CIRCULAR_DEPENDENCY, `Circular dependency detected: ${cycle}`, {
    details: { field: 'dependencies', reason: `form a cycle: ${cycle}`, cycle },
  });
}

export function executorNotFound(method: string, field: string): DomainError {
  return new DomainError(ErrorCode.EXECUTOR_NOT_FOUND, `Executor not found: ${method}`, {
    details: { field, reason: `names no executor: ${method}`, method },
  });
}

function throwCycle(parents: (number | null)[], inputs: TaskInputDto[], from?: number): never {
  const start = from ?? parents.findIndex((parent) => parent !== null);
  const path = [start];
  let at = parents[start];
  while (at !== null && at !== undefined && !path.includes(at)) {
    path.push(at);
    at = parents[at];
  }
  const loopStart = at === null || at === undefined ? 0 : path.indexOf(at);
  const loop = [...path.slice(loopStart), path[loopStart]].map((i) => inputs[i].name).join(' -> ');
  throw new DomainError(ErrorCode.CIRCULAR_DEPENDENCY, `Circular dependency detected: parent_id links ${loop}`, {
    details: { field: 'parent_id', reason: `parent links form a cycle: ${loop}`, cycle: loop },
  });
}

function ancestorIds(task: TaskEntity, existing: Map<string, TaskEntity>): Set<string> {
  const ids = new Set<string>();
  for (let at: TaskEntity | undefined = task; at; at = at.parentId ? existing.get(at.parentId) : undefined)
    ids.add(at.id);
  return ids;
}

function prefixed(error: unknown, at: string): FieldProblem[] {
  const fields = (error as DomainError).details?.fields as FieldProblem[] | undefined;
  if (!fields) throw error;
  return fields.map((problem) => ({ ...problem, field: `${at}.${problem.field}` }));
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
