import { useState } from 'preact/hooks';
import { registerAgent, ValidationReport, validateAgent } from '../api/agents';
import { Badge, ErrorText, Section } from '../ui/bits';

/** Register a remote agent by URL: its card is validated and the report shown before saving. */
export function RegisterAgent({ onRegistered }: { onRegistered: () => void }) {
  const [url, setUrl] = useState('');
  const [id, setId] = useState('');
  const [report, setReport] = useState<ValidationReport | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await work();
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };

  const validate = (event: Event) => {
    event.preventDefault();
    setSaved(null);
    void run(async () => setReport(await validateAgent(url.trim())));
  };

  const save = () =>
    run(async () => {
      const record = await registerAgent(url.trim(), id.trim() || undefined);
      setSaved(`Registered ${record.name} as ${record.agent_id}.`);
      setReport(null);
      setUrl('');
      setId('');
      onRegistered();
    });

  return (
    <Section title="Register a remote agent" id="register">
      <form class="row-form" onSubmit={validate}>
        <div>
          <label for="agent-url">Agent base URL</label>
          <input
            id="agent-url"
            type="url"
            required
            value={url}
            placeholder="http://lights.local:9001"
            onInput={(e) => (setUrl(e.currentTarget.value), setReport(null))}
          />
        </div>
        <div>
          <label for="agent-id">Id (optional)</label>
          <input
            id="agent-id"
            value={id}
            pattern="[a-z0-9][a-z0-9-]{0,62}"
            aria-describedby="agent-id-help"
            onInput={(e) => setId(e.currentTarget.value)}
          />
          <small id="agent-id-help">Lower-case letters, digits and dashes; default from the card's name.</small>
        </div>
        <button type="submit" disabled={busy}>
          Validate
        </button>
      </form>
      <ErrorText error={error} />
      {saved && <p role="status">{saved}</p>}
      {report && (
        <div class="report" aria-live="polite">
          <h3>Validation report</h3>
          <dl class="facts">
            <dt>Result</dt>
            <dd>
              <Badge value={report.validation} />
            </dd>
            <dt>Name</dt>
            <dd>{report.name ?? '—'}</dd>
            <dt>Protocol version</dt>
            <dd>
              {report.protocol_version ?? '—'} {report.version_valid ? '' : '(not valid)'}
            </dd>
            <dt>Skills</dt>
            <dd>{report.skill_count}</dd>
            <dt>Streaming</dt>
            <dd>{report.streaming ? 'yes' : 'no'}</dd>
            <dt>Card found at</dt>
            <dd>
              <code>{report.card_url}</code>
            </dd>
          </dl>
          {report.problems.length > 0 && (
            <>
              <h4>Problems</h4>
              <ul>
                {report.problems.map((p) => (
                  <li key={`${p.path} ${p.message}`}>
                    <Badge value={p.severity} /> <code>{p.path}</code> {p.message}
                  </li>
                ))}
              </ul>
            </>
          )}
          <button type="button" disabled={busy || report.validation === 'failed'} onClick={() => void save()}>
            Register {report.name ?? 'agent'}
          </button>
        </div>
      )}
    </Section>
  );
}
