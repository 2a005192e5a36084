import { useState } from 'preact/hooks';
import { ApiKey, revokeKey, listKeys } from '../api/keys';
import type { Session } from '../api/session';
import { Badge, ErrorText, Section, When } from '../ui/bits';
import { useLoad } from '../ui/load';
import { CreateKey } from './create-key';

export function KeysScreen({ session }: { session: Session }) {
  const keys = useLoad(listKeys);
  return (
    <>
      <CreateKey onCreated={keys.reload} />
      <Section title="API keys" id="keys">
        <ErrorText error={keys.error} />
        {keys.data && (
          <table>
            <caption>Every key, revoked and expired ones included</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Prefix</th>
                <th scope="col">Scopes</th>
                <th scope="col">Status</th>
                <th scope="col">Created</th>
                <th scope="col">Last used</th>
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {keys.data.map((key) => (
                <KeyRow key={key.id} apiKey={key} mine={key.id === session.key.id} onChanged={keys.reload} />
              ))}
            </tbody>
          </table>
        )}
      </Section>
    </>
  );
}

function KeyRow({ apiKey: key, mine, onChanged }: { apiKey: ApiKey; mine: boolean; onChanged: () => void }) {
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const revoke = async () => {
    setError(null);
    try {
      await revokeKey(key.id);
      // Revoking the key this session stands on ends the session: the reload's 401 signs out.
      onChanged();
    } catch (e) {
      setError((e as Error).message);
    }
  };
  return (
    <tr>
      <td>
        {key.name} {mine && <em>(this session)</em>}
      </td>
      <td>
        <code>{key.prefix}</code>
      </td>
      <td>{key.scopes.join(', ')}</td>
      <td>
        <Badge value={key.status} />
      </td>
      <td>
        <When at={key.created_at} />
      </td>
      <td>
        <When at={key.last_used_at} />
      </td>
      <td>
        {key.status === 'active' &&
          (confirming ? (
            <>
              <button type="button" class="danger" onClick={() => void revoke()}>
                Confirm revoke {key.name}
              </button>{' '}
              <button type="button" onClick={() => setConfirming(false)}>
                Keep
              </button>
              {mine && <p class="warning">This is the key you signed in with: you will be signed out.</p>}
            </>
          ) : (
            <button type="button" onClick={() => setConfirming(true)}>
              Revoke {key.name}
            </button>
          ))}
        <ErrorText error={error} />
      </td>
    </tr>
  );
}
