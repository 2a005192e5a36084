import { useState } from 'preact/hooks';
import { createTree, listTrees } from '../api/tasks';
import { Badge, ErrorText, Section, When } from '../ui/bits';
import { useLoad } from '../ui/load';
import { TreeView } from './tree-view';

const EXAMPLE = JSON.stringify(
  [
    { name: 'console-demo' },
    { name: 'wait', parent_id: 'console-demo', schemas: { method: 'sleep' }, inputs: { ms: 1500 } },
    { name: 'say', parent_id: 'console-demo', schemas: { method: 'noop' }, inputs: { hello: 'world' } },
  ],
  null,
  2,
);

export function TaskTreesScreen() {
  const trees = useLoad(() => listTrees());
  const [open, setOpen] = useState<string | null>(null);
  const [spec, setSpec] = useState(EXAMPLE);
  const [error, setError] = useState<string | null>(null);

  const create = async (event: Event) => {
    event.preventDefault();
    setError(null);
    try {
      const created = await createTree(JSON.parse(spec));
      trees.reload();
      setOpen(created.id);
    } catch (e) {
      setError((e as Error).message);
    }
  };

  return (
    <>
      <Section title="Create a tree" id="create-tree">
        <form onSubmit={(e) => void create(e)}>
          <label for="tree-spec">Tasks (JSON: a list; parent_id may name a task of the list)</label>
          <textarea id="tree-spec" rows={8} class="code" value={spec} onInput={(e) => setSpec(e.currentTarget.value)} />
          <button type="submit">Create tree</button>
        </form>
        <ErrorText error={error} />
      </Section>
      <Section title="Trees" id="trees">
        <ErrorText error={trees.error} />
        {trees.data && trees.data.tasks.length === 0 && <p>No task trees yet.</p>}
        {trees.data && trees.data.tasks.length > 0 && (
          <table>
            <caption>
              Newest trees ({trees.data.tasks.length} of {trees.data.total})
            </caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Status</th>
                <th scope="col">Created</th>
                <th scope="col">
                  <span class="visually-hidden">Open</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {trees.data.tasks.map((t) => (
                <tr key={t.id} class={t.id === open ? 'selected' : undefined}>
                  <td>{t.name}</td>
                  <td>
                    <Badge value={t.status} />
                  </td>
                  <td>
                    <When at={t.created_at} />
                  </td>
                  <td>
                    <button type="button" onClick={() => setOpen(t.id)} aria-pressed={t.id === open}>
                      Open {t.name}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Section>
      {open && <TreeView key={open} rootId={open} onChanged={trees.reload} onOpen={setOpen} />}
    </>
  );
}
