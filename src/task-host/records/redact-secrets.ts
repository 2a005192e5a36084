/** Field names that hold credentials: API keys, tokens, passwords, auth headers, webhook credentials. */
const SECRET_NAME =
  /(api[-_]?key|token|secret|passw(or)?d|authori[sz]ation|credential|cookie|^auth$|signature|private[-_]?key)/i;

export const REDACTED = '[REDACTED]';

/** A copy of a JSON value with every field named like a secret replaced by "[REDACTED]". */
export function redactSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactSecrets);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, v]) => [
        key,
        SECRET_NAME.test(key) && v !== null && v !== undefined && v !== '' ? REDACTED : redactSecrets(v),
      ]),
    );
  }
  return value;
}
