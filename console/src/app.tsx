import { useEffect, useRef, useState } from 'preact/hooks';
import { setCsrfToken, setUnauthorizedHandler } from './api/http';
import { currentSession, Session, signOut } from './api/session';
import { allowedScreens, ScreenId, screenFromHash } from './screens';
import { AgentsScreen } from './screens/agents';
import { HealthScreen } from './screens/health';
import { KeysScreen } from './screens/keys';
import { RoutingLogScreen } from './screens/routing-log';
import { SignIn } from './screens/sign-in';
import { TalkScreen } from './screens/talk';
import { TaskTreesScreen } from './screens/task-trees';

type State = { phase: 'loading' } | { phase: 'signed-out'; notice?: string } | { phase: 'signed-in'; session: Session };

export function App() {
  const [state, setState] = useState<State>({ phase: 'loading' });
  const [hash, setHash] = useState(location.hash);
  const heading = useRef<HTMLHeadingElement>(null);

  const enter = (session: Session | null, notice?: string) => {
    setCsrfToken(session?.csrf_token ?? null);
    setState(session ? { phase: 'signed-in', session } : { phase: 'signed-out', notice });
  };

  useEffect(() => {
    setUnauthorizedHandler(() => enter(null, 'Your session has ended. Sign in again.'));
    currentSession()
      .then((session) => enter(session))
      .catch(() => enter(null, 'The hub did not answer. Try again.'));
    const onHash = () => setHash(location.hash);
    addEventListener('hashchange', onHash);
    return () => removeEventListener('hashchange', onHash);
  }, []);

  const screenId = screenFromHash(hash);
  // Moving between screens: focus goes to the new screen's heading, so keyboard and screen reader users follow.
  useEffect(() => heading.current?.focus(), [screenId]);

  if (state.phase === 'loading')
    return (
      <main class="center">
        <p role="status">Loading…</p>
      </main>
    );
  if (state.phase === 'signed-out') return <SignIn notice={state.notice} onSignedIn={(s) => enter(s)} />;

  const { session } = state;
  const screens = allowedScreens(session.scopes);
  const current = screens.find((s) => s.id === screenId) ?? screens[0];

  const leave = async () => {
    await signOut().catch(() => undefined);
    enter(null, 'Signed out.');
  };

  return (
    <>
      <a class="skip" href="#content">
        Skip to content
      </a>
      <header class="top">
        <span class="brand">Switchboard</span>
        <nav aria-label="Screens">
          <ul>
            {screens.map((s) => (
              <li key={s.id}>
                <a href={`#/${s.id}`} aria-current={s.id === current?.id ? 'page' : undefined}>
                  {s.title}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <div class="who">
          <span>
            Signed in as <strong>{session.key.name}</strong>
          </span>
          <button type="button" onClick={() => void leave()}>
            Sign out
          </button>
        </div>
      </header>
      <main id="content">
        {current ? (
          <>
            <h1 tabIndex={-1} ref={heading}>
              {current.title}
            </h1>
            <Screen id={current.id} session={session} />
          </>
        ) : (
          <>
            <h1 tabIndex={-1} ref={heading}>
              Nothing to show
            </h1>
            <p>This key's scopes ({session.scopes.join(', ')}) open none of the console's screens.</p>
          </>
        )}
      </main>
    </>
  );
}

function Screen({ id, session }: { id: ScreenId; session: Session }) {
  switch (id) {
    case 'agents':
      return <AgentsScreen scopes={session.scopes} />;
    case 'talk':
      return <TalkScreen scopes={session.scopes} />;
    case 'routing':
      return <RoutingLogScreen />;
    case 'tasks':
      return <TaskTreesScreen />;
    case 'keys':
      return <KeysScreen session={session} />;
    case 'health':
      return <HealthScreen />;
  }
}
