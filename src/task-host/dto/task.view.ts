import type { TaskDependency, TaskEntity, TaskStatus } from '../entities/task.entity';

/** A task on the wire (apflow field names). */
export interface TaskView {
  id: string;
  name: string;
  user_id: string;
  parent_id: string | null;
  task_tree_id: string;
  priority: number;
  inputs: Record<string, unknown>;
  params: Record<string, unknown>;
  schemas: Record<string, unknown>;
  dependencies: TaskDependency[];
  status: TaskStatus;
  result: unknown;
  error: string | null;
  progress: number;
  has_children?: boolean;
  created_at: string;
  updated_at: string;
  started_at: string | null;
  completed_at: string | null;
}

export interface TaskTreeNode {
  task: TaskView;
  children: TaskTreeNode[];
}

export function toTaskView(task: TaskEntity, hasChildren?: boolean): TaskView {
  return {
    id: task.id,
    name: task.name,
    user_id: task.userId,
    parent_id: task.parentId,
    task_tree_id: task.rootId,
    priority: task.priority,
    inputs: task.inputs,
    params: task.params,
    schemas: task.schemas,
    dependencies: task.dependencies,
    status: task.status,
    result: task.result ?? null,
    error: task.error,
    progress: task.progress,
    ...(hasChildren === undefined ? {} : { has_children: hasChildren }),
    created_at: task.createdAt.toISOString(),
    updated_at: task.updatedAt.toISOString(),
    started_at: task.startedAt?.toISOString() ?? null,
    completed_at: task.completedAt?.toISOString() ?? null,
  };
}

/** Nests a tree's tasks under `rootId`, children by priority then creation. */
export function toTreeNode(rootId: string, tasks: TaskEntity[]): TaskTreeNode {
  const byParent = new Map<string, TaskEntity[]>();
  let root: TaskEntity | undefined;
  for (const task of tasks) {
    if (task.id === rootId) root = task;
    if (task.parentId) {
      const siblings = byParent.get(task.parentId);
      if (siblings) siblings.push(task);
      else byParent.set(task.parentId, [task]);
    }
  }
  if (!root) throw new Error(`Task ${rootId} is not in the tree given`);
  const order = (a: TaskEntity, b: TaskEntity) =>
    a.priority - b.priority || a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id);
  const build = (task: TaskEntity): TaskTreeNode => {
    const children = (byParent.get(task.id) ?? []).sort(order);
    return { task: toTaskView(task, children.length > 0), children: children.map(build) };
  };
  return build(root);
}
