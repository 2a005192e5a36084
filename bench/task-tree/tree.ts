/**
 * The benchmark's tree: fan-out / fan-in with dependencies, every task a `noop`, N tasks in all.
 *
 *   root (noop) ─ parent of every other task, so it runs last (a parent runs after its children)
 *   ├─ source                      no dependencies: the only task that can start first
 *   ├─ worker-00000 … worker-W-1   each depends on source            (fan-out)
 *   ├─ join-0000 … join-J-1        join-j depends on workers j·G … j·G+G-1 (fan-in, G = group size)
 *   └─ final                       depends on every join
 *
 * W + ceil(W / G) + 3 = N. With G = 100: 1,000 → 987 workers + 10 joins; 10,000 → 9,898 + 99;
 * 50,000 → 49,501 + 496. The critical path is five tasks long (source, worker, join, final,
 * root), so almost all of the work can run in parallel: the wall time measures how fast the
 * engine can schedule, start and complete tasks, not the length of a chain.
 */

export interface TaskInput {
  name: string;
  parent_id?: string;
  dependencies?: { name: string }[];
  schemas: { method: string };
}

export interface TreeShape {
  total: number;
  workers: number;
  joins: number;
  groupSize: number;
  /** Dependency edges (parent links not counted). */
  edges: number;
}

export function shapeOf(total: number, groupSize: number): TreeShape {
  if (total < 5) throw new Error(`a tree needs at least 5 tasks (root, source, worker, join, final), not ${total}`);
  let workers = Math.floor(((total - 3) * groupSize) / (groupSize + 1));
  while (workers + Math.ceil(workers / groupSize) + 3 < total) workers++;
  while (workers + Math.ceil(workers / groupSize) + 3 > total) workers--;
  const joins = Math.ceil(workers / groupSize);
  if (workers + joins + 3 !== total)
    throw new Error(`no fan-out/fan-in tree has exactly ${total} tasks with groups of ${groupSize}`);
  return { total, workers, joins, groupSize, edges: workers + workers + joins };
}

/** The tasks.create params: root first, then the stages. Names are unique within the tree. */
export function buildTree(shape: TreeShape, tag: string): TaskInput[] {
  const noop = { method: 'noop' };
  const worker = (i: number) => `worker-${String(i).padStart(5, '0')}`;
  const join = (j: number) => `join-${String(j).padStart(4, '0')}`;
  const tasks: TaskInput[] = [{ name: `root-${tag}`, schemas: noop }];
  const root = tasks[0].name;
  tasks.push({ name: 'source', parent_id: root, schemas: noop });
  for (let i = 0; i < shape.workers; i++)
    tasks.push({ name: worker(i), parent_id: root, dependencies: [{ name: 'source' }], schemas: noop });
  for (let j = 0; j < shape.joins; j++) {
    const dependencies: { name: string }[] = [];
    for (let i = j * shape.groupSize; i < Math.min(shape.workers, (j + 1) * shape.groupSize); i++)
      dependencies.push({ name: worker(i) });
    tasks.push({ name: join(j), parent_id: root, dependencies, schemas: noop });
  }
  tasks.push({
    name: 'final',
    parent_id: root,
    dependencies: Array.from({ length: shape.joins }, (_, j) => ({ name: join(j) })),
    schemas: noop,
  });
  if (tasks.length !== shape.total) throw new Error(`built ${tasks.length} tasks, expected ${shape.total}`);
  return tasks;
}
