import { Fragment } from 'preact';
import { ApiError, get } from '../api/http';
import { Badge, ErrorText, Json, Section } from '../ui/bits';
import { useLoad } from '../ui/load';

type Report = Record<string, unknown> & { status?: string; reasons?: string[]; warnings?: string[] };

/** A 503 still carries the report (status down, with reasons). */
async function report(path: string): Promise<Report> {
  try {
    return await get<Report>(path);
  } catch (e) {
    if (e instanceof ApiError && e.status === 503 && e.body && typeof e.body === 'object') return e.body as Report;
    throw e;
  }
}

const PARTS = ['router', 'registry', 'database', 'redis', 'telemetry', 'lifecycle'];

export function HealthScreen() {
  const diagnostics = useLoad(() => report('/internal/orchestration/health'));
  const system = useLoad(() => get<Report>('/api/system'));
  const ready = useLoad(() => report('/health/ready'));
  const d = diagnostics.data;
  return (
    <>
      <div class="actions">
        <button type="button" onClick={() => (diagnostics.reload(), system.reload(), ready.reload())}>
          Check again
        </button>
      </div>
      <Section title="Overall" id="overall">
        <ErrorText error={diagnostics.error} />
        {d && (
          <>
            <p>
              Hub <Badge value={String(d.status)} /> — version {String(d.version)}, up {String(d.uptime_seconds)} s;
              readiness probe {ready.data ? <Badge value={String(ready.data.status)} /> : '…'}
            </p>
            {d.reasons?.length ? (
              <ul class="error">
                {d.reasons.map((r) => (
                  <li key={r}>{r}</li>
                ))}
              </ul>
            ) : null}
            {d.warnings?.length ? (
              <ul class="warning">
                {d.warnings.map((w) => (
                  <li key={w}>{w}</li>
                ))}
              </ul>
            ) : null}
          </>
        )}
        {system.data && (
          <p>
            Database {String(system.data.database)}, key-value store {String(system.data.kv)}.
          </p>
        )}
      </Section>
      <div class="grid">
        {d &&
          PARTS.filter((part) => d[part] !== undefined).map((part) => (
            <Part key={part} name={part} value={d[part] as Record<string, unknown>} />
          ))}
      </div>
    </>
  );
}

const isPlain = (v: unknown) => v === null || typeof v !== 'object';

/** A part's plain fields, and those of its objects one level down ("embeddings state"); deeper ones as JSON. */
function Part({ name, value }: { name: string; value: Record<string, unknown> }) {
  const simple: [string, unknown][] = [];
  const nested: [string, unknown][] = [];
  for (const [k, v] of Object.entries(value ?? {})) {
    if (isPlain(v)) simple.push([k, v]);
    else if (Array.isArray(v)) simple.push([k, v.length ? v.join(', ') : 'none']);
    else
      for (const [k2, v2] of Object.entries(v as Record<string, unknown>))
        (isPlain(v2) ? simple : nested).push([`${k} ${k2}`, v2]);
  }
  return (
    <Section title={name[0].toUpperCase() + name.slice(1)} id={`health-${name}`}>
      <dl class="facts">
        {simple.map(([k, v]) => (
          <Fragment key={k}>
            <dt>{k}</dt>
            <dd>{/(^| )(status|state)$/.test(k) ? <Badge value={String(v)} /> : String(v)}</dd>
          </Fragment>
        ))}
      </dl>
      {nested.map(([k, v]) => (
        <details key={k}>
          <summary>{k}</summary>
          <Json label={`${name} ${k}`} value={v} />
        </details>
      ))}
    </Section>
  );
}
