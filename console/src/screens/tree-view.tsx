import { useEffect, useRef, useState } from 'preact/hooks';
import { cancelTree, copyTree, executeTree, getTree, TaskEvent, TreeNode, watchTree } from '../api/tasks';
import { Badge, ErrorText, Section } from '../ui/bits';

type Live = Record<string, { status: string; progress: number; error?: string | null }>;

/** One tree: its tasks nested, statuses updated live from the execution's event stream. */
export function TreeView(props: { rootId: string; onChanged: () => void; onOpen: (id: string) => void }) {
  const [tree, setTree] = useState<TreeNode | null>(null);
  const [live, setLive] = useState<Live>({});
  const [events, setEvents] = useState<TaskEvent[]>([]);
  const [running, setRunning] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);

  const live$ = useRef<AbortController | null>(null);

  const reload = () =>
    getTree(props.rootId)
      .then((t) => (setTree(t), setLive({}), t))
      .catch((e: Error) => (setError(e.message), null));

  /** Shows a stream's events as they come: each task's status and progress, then the tree as stored. */
  const follow = async (stream: (signal: AbortSignal) => AsyncGenerator<TaskEvent>, what: string) => {
    live$.current?.abort();
    const control = new AbortController();
    live$.current = control;
    setRunning(true);
    setError(null);
    setEvents([]);
    setNote(what);
    try {
      for await (const event of stream(control.signal)) {
        setEvents((all) => [...all, event]);
        if (event.event === 'final') setNote(`Tree finished: ${event.data.status}.`);
        else
          setLive((all) => ({
            ...all,
            [event.data.task_id]: { status: event.data.status, progress: event.data.progress, error: event.data.error },
          }));
      }
    } catch (e) {
      if (control.signal.aborted) return;
      setError((e as Error).message);
      setNote(null);
    } finally {
      if (!control.signal.aborted) {
        setRunning(false);
        await reload();
        props.onChanged();
      }
    }
  };

  // A tree already running when opened (started elsewhere) is followed live too.
  useEffect(() => {
    void reload().then((t) => {
      if (t && isRunning(t)) void follow((signal) => watchTree(props.rootId, signal), 'Running…');
    });
    return () => live$.current?.abort();
  }, [props.rootId]);

  const execute = () => follow((signal) => executeTree(props.rootId, signal), 'Running…');

  const act = async (work: () => Promise<string>) => {
    setError(null);
    try {
      setNote(await work());
      await reload();
      props.onChanged();
    } catch (e) {
      setError((e as Error).message);
    }
  };

  const rootName = tree?.task.name ?? props.rootId;
  return (
    <Section title={`Tree ${rootName}`} id="tree">
      <div class="actions">
        <button type="button" disabled={running} onClick={() => void execute()}>
          Execute
        </button>
        <button
          type="button"
          onClick={() => void act(async () => `Cancelled ${(await cancelTree(props.rootId)).cancelled_count} task(s).`)}
        >
          Cancel
        </button>
        <button
          type="button"
          disabled={running}
          onClick={() =>
            void act(async () => {
              const copy = await copyTree(props.rootId);
              props.onOpen(copy.copied_task_id);
              return 'Copied.';
            })
          }
        >
          Copy
        </button>
      </div>
      <p role="status" class="muted">
        {note}
      </p>
      <ErrorText error={error} />
      {tree && (
        <ul class="tree" aria-label={`Tasks of ${rootName}`}>
          <Node node={tree} live={live} />
        </ul>
      )}
      {events.length > 0 && (
        <details>
          <summary>Events ({events.length})</summary>
          <ol class="events">
            {events.map((e, i) => (
              <li key={i}>
                <code>{e.event}</code> {e.data.task_id.slice(0, 8)} {e.data.status}
              </li>
            ))}
          </ol>
        </details>
      )}
    </Section>
  );
}

/** A task of the tree is running (a parent waits, pending, while its children run). */
function isRunning(node: TreeNode): boolean {
  return node.task.status === 'in_progress' || node.children.some(isRunning);
}

function Node({ node, live }: { node: TreeNode; live: Live }) {
  const { task } = node;
  const now = live[task.id];
  const status = now?.status ?? task.status;
  const progress = Math.round((now?.progress ?? task.progress) * 100);
  const error = now?.error ?? task.error;
  const method = typeof task.schemas?.method === 'string' ? task.schemas.method : null;
  return (
    <li data-task={task.name}>
      <span class="task-line">
        <strong>{task.name}</strong> {method && <code>{method}</code>} <Badge value={status} />{' '}
        <progress max={100} value={progress} aria-label={`${task.name} progress`}>
          {progress}%
        </progress>
      </span>
      {error && <span class="error"> {error}</span>}
      {status === 'completed' && task.result !== null && !now && (
        <code class="result">{JSON.stringify(task.result)}</code>
      )}
      {node.children.length > 0 && (
        <ul>
          {node.children.map((child) => (
            <Node key={child.task.id} node={child} live={live} />
          ))}
        </ul>
      )}
    </li>
  );
}
