import { rpc, rpcId } from './json-rpc';
import { postEventStream } from './sse';

/** The task-tree JSON-RPC API at POST /tasks (src/task-host/rpc/task-rpc.methods.ts). */
const PATH = '/tasks';

export interface TaskView {
  id: string;
  name: string;
  parent_id: string | null;
  task_tree_id: string;
  status: string;
  progress: number;
  result: unknown;
  error: string | null;
  schemas: Record<string, unknown>;
  has_children?: boolean;
  created_at: string;
  completed_at: string | null;
}

export interface TreeNode {
  task: TaskView;
  children: TreeNode[];
}

export interface TaskEvent {
  event: string;
  data: {
    task_id: string;
    root_task_id: string;
    status: string;
    progress: number;
    error?: string | null;
    final?: true;
  };
}

export const listTrees = (limit = 20, offset = 0) =>
  rpc<{ tasks: TaskView[]; total: number; limit: number; offset: number }>(PATH, 'tasks.list', {
    root_only: true,
    limit,
    offset,
  });
export const getTree = (taskId: string) => rpc<TreeNode>(PATH, 'tasks.tree', { task_id: taskId });
export const createTree = (tasks: unknown) => rpc<{ id: string }>(PATH, 'tasks.create', tasks);
export const cancelTree = (taskId: string) =>
  rpc<{ cancelled_count: number }>(PATH, 'tasks.cancel', { task_id: taskId });
export const copyTree = (taskId: string) =>
  rpc<{ copied_task_id: string }>(PATH, 'tasks.copy', { task_id: taskId, copy_children: true });

/** Reads a `tasks.*` event stream: the JSON-RPC envelope first, then `{event, data}` until `final`. */
async function* taskEvents(method: string, params: unknown, signal?: AbortSignal): AsyncGenerator<TaskEvent> {
  const body = { jsonrpc: '2.0', id: rpcId(), method, params };
  for await (const event of postEventStream(PATH, body, signal)) {
    const parsed = JSON.parse(event.data) as Partial<TaskEvent> & { error?: { message: string; code: number } };
    if (parsed.error) throw new Error(`${parsed.error.message} (${parsed.error.code})`);
    if (parsed.event && parsed.data) yield parsed as TaskEvent;
  }
}

/** `tasks.execute` with `use_streaming`: runs the tree and streams its events. */
export const executeTree = (taskId: string, signal?: AbortSignal) =>
  taskEvents('tasks.execute', { task_id: taskId, use_streaming: true }, signal);

/** `tasks.watch`: the events of the tree's current (or next) execution, whoever started it. */
export const watchTree = (taskId: string, signal?: AbortSignal) =>
  taskEvents('tasks.watch', { task_id: taskId }, signal);
