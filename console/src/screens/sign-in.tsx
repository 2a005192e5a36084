import { useEffect, useRef, useState } from 'preact/hooks';
import { Session, signIn } from '../api/session';

/** The key goes from this field to POST /api/console/session and nowhere else: never stored. */
export function SignIn({ notice, onSignedIn }: { notice?: string; onSignedIn: (session: Session) => void }) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const field = useRef<HTMLInputElement>(null);
  useEffect(() => field.current?.focus(), []);

  const submit = async (event: Event) => {
    event.preventDefault();
    const input = field.current!;
    setBusy(true);
    setError(null);
    try {
      const session = await signIn(input.value.trim());
      input.value = '';
      onSignedIn(session);
    } catch (e) {
      setError((e as Error).message || 'Sign-in failed');
      input.focus();
    } finally {
      setBusy(false);
    }
  };

  return (
    <main class="center">
      <form class="card sign-in" onSubmit={(e) => void submit(e)} aria-describedby="sign-in-help">
        <h1>Sign in to Switchboard</h1>
        {notice && !error && <p role="status">{notice}</p>}
        <p id="sign-in-help">
          Use an API key (the one printed at first start, ADMIN_API_KEY, or one made with <code>npm run keys</code>). It
          is exchanged for a session cookie and not kept in the browser.
        </p>
        <label for="api-key">API key</label>
        <input
          id="api-key"
          name="api_key"
          type="password"
          autocomplete="off"
          required
          ref={field}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'sign-in-error' : undefined}
        />
        {error && (
          <p id="sign-in-error" class="error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}
