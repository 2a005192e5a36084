import { useState } from 'preact/hooks';
import { textOf } from '../api/a2a';
import type { RoutingDecision } from '../api/routing-log';
import { Badge } from '../ui/bits';
import { asksForInput, Turn } from './talk-turn';

export function TurnView(props: {
  turn: Turn;
  latest: boolean;
  busy: boolean;
  showDecision: boolean;
  onAnswer: (answer: string) => void;
}) {
  const { turn } = props;
  const meta = turn.metadata;
  const agentsUsed = Array.isArray(meta?.agents_used) ? (meta.agents_used as string[]) : null;
  return (
    <li class="turn">
      <div class="bubble user">
        <span class="who-said">{turn.answering ? 'You (answer)' : 'You'}</span>
        <p>{turn.text}</p>
      </div>
      <div class="answer">
        <article class="bubble agent" aria-label={`Answer from ${turn.agent}`}>
          <span class="who-said">
            {turn.agent} {turn.state && <Badge value={turn.state} />}
          </span>
          {!turn.done && !turn.reply && <p role="status">Waiting for the answer…</p>}
          {turn.reply && <p class="reply">{turn.reply}</p>}
          {turn.artifacts.length > 0 && (
            <div class="artifacts">
              <h3>Artifacts</h3>
              <ul>
                {turn.artifacts.map((a) => (
                  <li key={a.artifactId}>
                    <strong>{a.name ?? a.artifactId}</strong>: {textOf(a.parts) || JSON.stringify(a.parts)}
                  </li>
                ))}
              </ul>
            </div>
          )}
          {turn.error && (
            <p class="error" role="alert">
              {turn.error}
            </p>
          )}
          {asksForInput(turn) && props.latest && <AnswerForm busy={props.busy} onAnswer={props.onAnswer} />}
        </article>
        {props.showDecision && turn.done && (
          <aside class="decision" aria-label="Routing decision">
            <h3>Routing decision</h3>
            {agentsUsed && (
              <p>
                Agents used: <strong>{agentsUsed.join(', ') || 'none'}</strong>
                {typeof meta?.execution_time_ms === 'number' && <> in {meta.execution_time_ms} ms</>}
                {typeof meta?.task_state === 'string' && <> ({meta.task_state})</>}
              </p>
            )}
            {turn.decision === undefined ? (
              <p role="status">Reading the routing log…</p>
            ) : turn.decision ? (
              <DecisionFacts decision={turn.decision} />
            ) : (
              <p>No routing log entry for this turn.</p>
            )}
          </aside>
        )}
      </div>
    </li>
  );
}

export function DecisionFacts({ decision }: { decision: RoutingDecision }) {
  const agents = [decision.agentId, ...decision.additionalAgents].filter(Boolean).join(', ');
  return (
    <dl class="facts">
      <dt>Agents</dt>
      <dd>{agents || 'none'}</dd>
      <dt>Confidence</dt>
      <dd>{decision.confidence === null ? '—' : decision.confidence.toFixed(2)}</dd>
      <dt>Reasoning</dt>
      <dd>{decision.reasoning ?? '—'}</dd>
      <dt>Router</dt>
      <dd>{decision.router ?? '—'}</dd>
      <dt>Outcome</dt>
      <dd>
        <Badge value={decision.outcome} />
      </dd>
    </dl>
  );
}

/** The agent's question, answered in place: the answer continues the same task in the same context. */
function AnswerForm({ busy, onAnswer }: { busy: boolean; onAnswer: (answer: string) => void }) {
  const [answer, setAnswer] = useState('');
  return (
    <form
      class="answer-form"
      onSubmit={(e) => {
        e.preventDefault();
        if (answer.trim()) onAnswer(answer);
      }}
    >
      <label for="input-answer">Your answer</label>
      <input id="input-answer" value={answer} onInput={(e) => setAnswer(e.currentTarget.value)} />
      <button type="submit" disabled={busy || !answer.trim()}>
        Answer
      </button>
    </form>
  );
}
