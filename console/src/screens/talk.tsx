import { useEffect, useRef, useState } from 'preact/hooks';
import { sendMessage, streamMessage } from '../api/a2a';
import { agentIdOf, listCards } from '../api/agents';
import { decisionFor } from '../api/routing-log';
import { hasScope } from '../screens';
import { ErrorText } from '../ui/bits';
import { applyEvent, Turn } from './talk-turn';
import { TurnView } from './turn-view';

const ORCHESTRATOR = 'orchestrator';
const endpointOf = (agent: string) => `/api/agents/${encodeURIComponent(agent)}/v1`;

/** A streamed chat with the orchestrator or any agent; the conversation keeps its contextId across turns. */
export function TalkScreen({ scopes }: { scopes: string[] }) {
  const [agents, setAgents] = useState<{ id: string; name: string }[]>([{ id: ORCHESTRATOR, name: 'Orchestrator' }]);
  const [agent, setAgent] = useState(ORCHESTRATOR);
  const [turns, setTurns] = useState<Turn[]>([]);
  const [contextId, setContextId] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const seen = useRef(new Set<string>());
  const nextId = useRef(1);
  const field = useRef<HTMLTextAreaElement>(null);
  const canSeeDecisions = hasScope(scopes, 'internal');

  useEffect(() => {
    if (!hasScope(scopes, 'agents:read')) return;
    listCards()
      .then((cards) => setAgents(cards.flatMap((c) => (agentIdOf(c) ? [{ id: agentIdOf(c)!, name: c.name }] : []))))
      .catch(() => undefined);
  }, [scopes]);

  const update = (id: number, change: (turn: Turn) => Turn) =>
    setTurns((all) => all.map((t) => (t.id === id ? change(t) : t)));

  const send = async (message: string, taskId?: string) => {
    if (!message.trim() || busy) return;
    setBusy(true);
    setError(null);
    const id = nextId.current++;
    const started: Turn = {
      id,
      agent,
      text: message,
      answering: !!taskId,
      state: null,
      reply: '',
      artifacts: [],
      metadata: null,
      error: null,
      done: false,
      contextId,
      taskId,
    };
    setTurns((all) => [...all, started]);
    let turn = started;
    try {
      if (taskId) turn = applyEvent(turn, await sendMessage(endpointOf(agent), message, { contextId, taskId }));
      else
        for await (const event of streamMessage(endpointOf(agent), message, { contextId })) {
          turn = applyEvent(turn, event);
          const current = turn;
          update(id, () => current);
        }
    } catch (e) {
      turn = { ...turn, error: (e as Error).message };
    }
    turn = { ...turn, done: true };
    const finished = turn;
    update(id, () => finished);
    if (turn.contextId) setContextId(turn.contextId);
    setBusy(false);
    field.current?.focus();
    if (canSeeDecisions && agent === ORCHESTRATOR && turn.contextId) {
      const decision = await decisionFor(turn.contextId, seen.current).catch(() => null);
      if (decision) seen.current.add(decision.id);
      update(id, (t) => ({ ...t, decision }));
    }
  };

  const submit = (event: Event) => {
    event.preventDefault();
    const message = text;
    setText('');
    void send(message);
  };

  const restart = () => {
    setTurns([]);
    setContextId(undefined);
    seen.current.clear();
    field.current?.focus();
  };

  return (
    <>
      <div class="toolbar">
        <label for="talk-agent">Talk to</label>
        <select
          id="talk-agent"
          value={agent}
          disabled={busy}
          onChange={(e) => (setAgent(e.currentTarget.value), restart())}
        >
          {agents.map((a) => (
            <option key={a.id} value={a.id}>
              {a.name} ({a.id})
            </option>
          ))}
        </select>
        <button type="button" onClick={restart} disabled={busy}>
          New conversation
        </button>
        <span class="muted">{contextId ? `Conversation ${contextId}` : 'New conversation'}</span>
      </div>
      <ol class="conversation" aria-label="Conversation" aria-live="polite">
        {turns.map((turn, i) => (
          <TurnView
            key={turn.id}
            turn={turn}
            latest={i === turns.length - 1}
            busy={busy}
            showDecision={canSeeDecisions && turn.agent === ORCHESTRATOR}
            onAnswer={(answer) => void send(answer, turn.taskId)}
          />
        ))}
      </ol>
      <form class="composer" onSubmit={submit}>
        <label for="talk-message">Message</label>
        <textarea
          id="talk-message"
          ref={field}
          rows={2}
          value={text}
          onInput={(e) => setText(e.currentTarget.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.shiftKey) submit(e);
          }}
        />
        <button type="submit" disabled={busy || !text.trim()}>
          {busy ? 'Answering…' : 'Send'}
        </button>
      </form>
      <ErrorText error={error} />
    </>
  );
}
