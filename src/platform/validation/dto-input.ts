import { DomainError, FieldProblem } from '../errors/domain-error';
import { jsonObjectFields } from './is-json-object';

/** Member names class-transformer treats as part of the object model rather than as data. */
const RESERVED = new Set(['constructor', '__proto__', 'prototype']);

/** Input split for class-transformer: what it may walk, and how to put the rest back. */
export interface SplitInput {
  /** The input without its free-form JSON fields. */
  rest: unknown;
  /** Puts the free-form JSON fields, as sent, on the transformed instance. */
  restore(instance: object): void;
}

/**
 * Prepares client input for class-transformer, which walks every object it is given: it drops
 * members named `constructor` or `__proto__`, and fails outright on some of them. Free-form JSON
 * fields (@IsJsonObject) are taken out, to go back untouched (so `{"constructor": …}` in task
 * inputs is data like any other); anywhere else - where only the DTO's own fields belong - such
 * a member is refused, naming it. Throws VALIDATION_FAILED.
 */
export function splitInput(type: new (...args: never[]) => object, plain: unknown): SplitInput {
  if (plain === null || typeof plain !== 'object' || Array.isArray(plain)) {
    const problem = reservedMember(plain, 'body');
    if (problem) throw DomainError.validation([problem]);
    return { rest: plain, restore: () => undefined };
  }
  const source = plain as Record<string, unknown>;
  const free = jsonObjectFields(type).filter((field) => Object.hasOwn(source, field) && source[field] !== undefined);
  const problems: FieldProblem[] = free
    .filter((field) => !isObject(source[field]) && source[field] !== null)
    .map((field) => ({ field, reason: 'must be an object' }));
  const rest = free.length ? Object.fromEntries(Object.entries(source).filter(([key]) => !free.includes(key))) : source;
  const reserved = reservedMember(rest, '');
  if (reserved) problems.push(reserved);
  if (problems.length) throw DomainError.validation(problems);
  return {
    rest,
    restore: (instance) => {
      for (const field of free) (instance as Record<string, unknown>)[field] = source[field];
    },
  };
}

function reservedMember(value: unknown, path: string): FieldProblem | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  for (const [key, member] of Object.entries(value)) {
    const at = Array.isArray(value) ? `${path}[${key}]` : path ? `${path}.${key}` : key;
    if (!Array.isArray(value) && RESERVED.has(key)) return { field: at, reason: 'is not a field this request takes' };
    const found = reservedMember(member, at);
    if (found) return found;
  }
  return undefined;
}

function isObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
