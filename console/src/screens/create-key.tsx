import { useEffect, useRef, useState } from 'preact/hooks';
import { createKey, SCOPES } from '../api/keys';
import { ErrorText, Section } from '../ui/bits';

/** Creates a key and shows it once: it is in no list afterwards and the console does not keep it. */
export function CreateKey({ onCreated }: { onCreated: () => void }) {
  const [name, setName] = useState('');
  const [owner, setOwner] = useState('');
  const [scopes, setScopes] = useState<string[]>(['agents:read', 'messages']);
  const [created, setCreated] = useState<{ name: string; key: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const shown = useRef<HTMLDivElement>(null);
  useEffect(() => shown.current?.focus(), [created]);

  const toggle = (scope: string, on: boolean) =>
    setScopes((all) => (on ? [...all, scope] : all.filter((s) => s !== scope)));

  const submit = async (event: Event) => {
    event.preventDefault();
    setError(null);
    try {
      const key = await createKey({ name: name.trim(), scopes, ...(owner.trim() ? { owner: owner.trim() } : {}) });
      setCreated({ name: key.name, key: key.key });
      setName('');
      setOwner('');
      onCreated();
    } catch (e) {
      setError((e as Error).message);
    }
  };

  return (
    <Section title="Create a key" id="create-key">
      {created && (
        <div class="once" role="alert" tabIndex={-1} ref={shown}>
          <p>
            Key <strong>{created.name}</strong> created. Copy it now: it is shown only this once.
          </p>
          <p>
            <label for="new-key">New key</label>
            <input id="new-key" readOnly value={created.key} onFocus={(e) => e.currentTarget.select()} />
          </p>
          <button type="button" onClick={() => setCreated(null)}>
            I have stored it
          </button>
        </div>
      )}
      <form class="row-form" onSubmit={(e) => void submit(e)}>
        <div>
          <label for="key-name">Name</label>
          <input id="key-name" required maxLength={100} value={name} onInput={(e) => setName(e.currentTarget.value)} />
        </div>
        <div>
          <label for="key-owner">Owner (optional)</label>
          <input id="key-owner" value={owner} onInput={(e) => setOwner(e.currentTarget.value)} />
        </div>
        <fieldset>
          <legend>Scopes</legend>
          {SCOPES.map((scope) => (
            <label key={scope} class="check">
              <input
                type="checkbox"
                checked={scopes.includes(scope)}
                onChange={(e) => toggle(scope, e.currentTarget.checked)}
              />{' '}
              {scope}
            </label>
          ))}
        </fieldset>
        <button type="submit" disabled={!name.trim() || scopes.length === 0}>
          Create key
        </button>
      </form>
      <ErrorText error={error} />
    </Section>
  );
}
