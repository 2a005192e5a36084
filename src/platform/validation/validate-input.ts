import { ClassConstructor, plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { DomainError } from '../errors/domain-error';
import { validationProblems } from '../errors/validation-problems';
import { jsonObjectFields } from './is-json-object';

/**
 * The same checks the global ValidationPipe applies to HTTP bodies, for input that arrives
 * another way (gRPC messages, CLI options): so every transport enforces one set of rules.
 * Throws VALIDATION_FAILED naming each bad field.
 */
export function validateInput<T extends object>(type: ClassConstructor<T>, plain: unknown): T {
  const source = plain ?? {};
  // Free-form JSON (@IsJsonObject) goes past class-transformer untouched and is put back as sent.
  const free = typeof source === 'object' && !Array.isArray(source) ? jsonObjectFields(type) : [];
  const kept = free.filter((field) => Object.hasOwn(source, field));
  const rest = kept.length ? Object.fromEntries(Object.entries(source).filter(([key]) => !kept.includes(key))) : source;
  const instance = plainToInstance(type, rest);
  for (const field of kept) (instance as Record<string, unknown>)[field] = (source as Record<string, unknown>)[field];
  const problems = validationProblems(validateSync(instance, { whitelist: true }));
  if (problems.length > 0) throw DomainError.validation(problems);
  return instance;
}

/** proto3 gives absent strings as '' and absent messages as null: treat both as absent. */
export function withoutEmpty<T>(value: T): T {
  if (Array.isArray(value)) return value.map(withoutEmpty) as T;
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([, v]) => v !== '' && v !== null && v !== undefined)
        .map(([k, v]) => [k, withoutEmpty(v)]),
    ) as T;
  }
  return value;
}
