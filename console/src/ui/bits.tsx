import type { ComponentChildren } from 'preact';

export function ErrorText({ error }: { error: string | null | undefined }) {
  return error ? (
    <p class="error" role="alert">
      {error}
    </p>
  ) : null;
}

/** A status word as a coloured label (the word itself carries the meaning, not the colour). */
export function Badge({ value }: { value: string }) {
  return <span class={`badge badge-${value.replace(/[^a-z-]/gi, '').toLowerCase()}`}>{value}</span>;
}

export function When({ at }: { at: string | null | undefined }) {
  if (!at) return <span>never</span>;
  const date = new Date(at);
  return <time dateTime={at}>{date.toLocaleString()}</time>;
}

export function Section({ title, children, id }: { title: string; children: ComponentChildren; id?: string }) {
  const headingId = `${id ?? title.toLowerCase().replace(/\W+/g, '-')}-heading`;
  return (
    <section aria-labelledby={headingId} class="card">
      <h2 id={headingId}>{title}</h2>
      {children}
    </section>
  );
}

export function Json({ value, label }: { value: unknown; label: string }) {
  return (
    <pre class="json" aria-label={label} tabIndex={0}>
      {JSON.stringify(value, null, 2)}
    </pre>
  );
}
