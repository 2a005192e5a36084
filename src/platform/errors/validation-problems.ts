import type { ValidationError } from 'class-validator';
import type { FieldProblem } from './domain-error';

/**
 * Constraints that say what type a value must be. When one fails, the field's other constraints
 * (its length, its range, its nested members) say nothing useful - `text` sent as 123 is not "too
 * short" - so only the type is named.
 */
const TYPE_CHECKS = new Set([
  'isString',
  'isNumber',
  'isInt',
  'isBoolean',
  'isArray',
  'isObject',
  'isJsonObject',
  'isDate',
]);

/** Flattens class-validator errors into {field, reason}, with dotted paths for nested fields. */
export function validationProblems(errors: ValidationError[], parent = ''): FieldProblem[] {
  return errors.flatMap((error) => {
    const field = parent ? `${parent}.${error.property}` : error.property;
    const constraints = Object.entries(error.constraints ?? {});
    const wrongType = constraints.filter(([name]) => TYPE_CHECKS.has(name));
    const own = (wrongType.length > 0 ? wrongType : constraints).map(([, message]) => ({
      field,
      reason: message.startsWith(`${error.property} `) ? message.slice(error.property.length + 1) : message,
    }));
    return wrongType.length > 0 ? own : [...own, ...validationProblems(error.children ?? [], field)];
  });
}
