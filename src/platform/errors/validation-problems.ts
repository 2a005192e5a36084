import type { ValidationError } from 'class-validator';
import type { FieldProblem } from './domain-error';

/** Flattens class-validator errors into {field, reason}, with dotted paths for nested fields. */
export function validationProblems(errors: ValidationError[], parent = ''): FieldProblem[] {
  return errors.flatMap((error) => {
    const field = parent ? `${parent}.${error.property}` : error.property;
    const own = Object.values(error.constraints ?? {}).map((message) => ({
      field,
      reason: message.startsWith(`${error.property} `) ? message.slice(error.property.length + 1) : message,
    }));
    return [...own, ...validationProblems(error.children ?? [], field)];
  });
}
