/** Small helpers that keep problem paths and messages consistent across the validator. */

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
const MAX_QUOTED_LENGTH = 80;

/** Appends an object key to a path: "skills[0]" + "tags" → "skills[0].tags"; odd keys are bracketed. */
export function joinKey(path: string, key: string): string {
  if (!IDENTIFIER.test(key)) return `${path}[${JSON.stringify(key)}]`;
  return path === '' ? key : `${path}.${key}`;
}

/** Appends an array index to a path: "skills" + 1 → "skills[1]". */
export function joinIndex(path: string, index: number | string): string {
  return `${path}[${index}]`;
}

/** A value as it should appear after "got" in a message: strings quoted, containers by kind. */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return quote(value);
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** JSON-quotes a string, shortening long ones so a message stays on one readable line. */
export function quote(value: string): string {
  const shown = value.length > MAX_QUOTED_LENGTH ? `${value.slice(0, MAX_QUOTED_LENGTH)}…` : value;
  return JSON.stringify(shown);
}

export function quoteAll(values: readonly unknown[]): string {
  return values.map((value) => describeValue(value)).join(', ');
}

/** A JSON object: not null, not an array. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
