import { useEffect, useState } from 'preact/hooks';
import { ROUTING_OUTCOMES, RoutingDecision, RoutingLogFilter, routingLog } from '../api/routing-log';
import { Badge, ErrorText, When } from '../ui/bits';
import { DecisionFacts } from './turn-view';

const PAGE = 25;

/** datetime-local gives local time without a zone; the API wants ISO 8601 with one. */
const iso = (local: string) => (local ? new Date(local).toISOString() : undefined);

export function RoutingLogScreen() {
  const [form, setForm] = useState({ agent: '', outcome: '', since: '', until: '', minConfidence: '' });
  const [items, setItems] = useState<RoutingDecision[] | null>(null);
  const [cursor, setCursor] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const filter = (): RoutingLogFilter => ({
    agent: form.agent.trim() || undefined,
    outcome: form.outcome || undefined,
    since: iso(form.since),
    until: iso(form.until),
    minConfidence: form.minConfidence || undefined,
    limit: PAGE,
  });

  const load = async (more: boolean) => {
    setBusy(true);
    setError(null);
    try {
      const page = await routingLog({ ...filter(), cursor: more ? (cursor ?? undefined) : undefined });
      setItems((before) => (more && before ? [...before, ...page.items] : page.items));
      setCursor(page.next_cursor);
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };

  useEffect(() => void load(false), []);
  const field = (name: keyof typeof form) => ({
    id: `log-${name}`,
    value: form[name],
    onInput: (e: Event) => setForm({ ...form, [name]: (e.currentTarget as HTMLInputElement).value }),
  });

  return (
    <>
      <form
        class="filters"
        aria-label="Filter the routing log"
        onSubmit={(e) => {
          e.preventDefault();
          void load(false);
        }}
      >
        <div>
          <label for="log-agent">Agent</label>
          <input {...field('agent')} />
        </div>
        <div>
          <label for="log-outcome">Outcome</label>
          <select {...field('outcome')} onChange={(e) => setForm({ ...form, outcome: e.currentTarget.value })}>
            <option value="">any</option>
            {ROUTING_OUTCOMES.map((o) => (
              <option key={o} value={o}>
                {o}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label for="log-minConfidence">Confidence at least</label>
          <input {...field('minConfidence')} type="number" min="0" max="1" step="0.05" />
        </div>
        <div>
          <label for="log-since">From</label>
          <input {...field('since')} type="datetime-local" />
        </div>
        <div>
          <label for="log-until">Until</label>
          <input {...field('until')} type="datetime-local" />
        </div>
        <button type="submit" disabled={busy}>
          Apply filters
        </button>
      </form>
      <ErrorText error={error} />
      {items && items.length === 0 && <p>No routing decisions match.</p>}
      {items && items.length > 0 && (
        <table class="log">
          <caption>Routing decisions, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Time</th>
              <th scope="col">Request</th>
              <th scope="col">Agents</th>
              <th scope="col">Confidence</th>
              <th scope="col">Outcome</th>
              <th scope="col">Duration</th>
            </tr>
          </thead>
          <tbody>
            {items.map((d) => (
              <LogRow key={d.id} decision={d} />
            ))}
          </tbody>
        </table>
      )}
      {cursor && (
        <button type="button" disabled={busy} onClick={() => void load(true)}>
          Load older decisions
        </button>
      )}
    </>
  );
}

function LogRow({ decision: d }: { decision: RoutingDecision }) {
  return (
    <tr>
      <td>
        <When at={d.timestamp} />
      </td>
      <td>
        <details>
          <summary>{d.request || '(empty request)'}</summary>
          <DecisionFacts decision={d} />
          <dl class="facts">
            <dt>Conversation</dt>
            <dd>
              <code>{d.contextId ?? '—'}</code>
            </dd>
            <dt>Task</dt>
            <dd>
              <code>{d.taskId ?? '—'}</code>
            </dd>
            <dt>Owner</dt>
            <dd>{d.owner}</dd>
            <dt>Candidates</dt>
            <dd>{d.candidates.length ? d.candidates.join(', ') : '—'}</dd>
            {d.errorCode && (
              <>
                <dt>Error</dt>
                <dd>{d.errorCode}</dd>
              </>
            )}
          </dl>
          {d.answer !== null && (
            <blockquote class="logged-answer" aria-label="Answer">
              {d.answer}
            </blockquote>
          )}
        </details>
      </td>
      <td>{[d.agentId, ...d.additionalAgents].filter(Boolean).join(', ') || '—'}</td>
      <td>{d.confidence === null ? '—' : d.confidence.toFixed(2)}</td>
      <td>
        <Badge value={d.outcome} />
      </td>
      <td>{d.durationMs === null ? '—' : `${d.durationMs} ms`}</td>
    </tr>
  );
}
