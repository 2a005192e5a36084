import { ClassConstructor, plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { DomainError } from '../errors/domain-error';
import { validationProblems } from '../errors/validation-problems';
import { splitInput } from './dto-input';

/**
 * The same checks the global ValidationPipe applies to HTTP bodies, for input that arrives
 * another way (gRPC messages, CLI options): so every transport enforces one set of rules.
 * Throws VALIDATION_FAILED naming each bad field.
 */
export function validateInput<T extends object>(type: ClassConstructor<T>, plain: unknown): T {
  const input = splitInput(type, plain ?? {});
  const instance = plainToInstance(type, input.rest);
  input.restore(instance);
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
