import Ajv, { type ErrorObject, type SchemaObject, type SchemaValidateFunction, type ValidateFunction } from 'ajv';
import { agentCardCommonSchema, agentCardV03Schema, agentCardV10Schema } from './agent-card.schemas';
import { describeValue, isRecord, joinIndex, joinKey, quoteAll } from './card-text';
import type { CardProblem } from './card-validation.types';

/** Which A2A card layout a card uses; `unknown` cards are checked only for the fields both layouts share. */
export type CardLayout = 'v0.3' | 'v1.0' | 'unknown';

let validators: Record<CardLayout, ValidateFunction> | undefined;

/** Checks the card against the JSON Schema of its layout and turns every violation into an error. */
export function schemaProblems(layout: CardLayout, card: Record<string, unknown>): CardProblem[] {
  validators ??= compileValidators();
  const validate = validators[layout];
  if (validate(card)) return [];
  return (validate.errors ?? []).flatMap((error) => {
    const problem = toProblem(error, card);
    return problem ? [problem] : [];
  });
}

function compileValidators(): Record<CardLayout, ValidateFunction> {
  const ajv = new Ajv({ allErrors: true, strict: true, discriminator: true, verbose: true });
  ajv.addKeyword({
    keyword: 'exactlyOneKeyOf',
    type: 'object',
    schemaType: 'array',
    errors: true,
    validate: exactlyOneKeyOf,
  });
  return {
    'v0.3': ajv.compile(agentCardV03Schema),
    'v1.0': ajv.compile(agentCardV10Schema),
    unknown: ajv.compile(agentCardCommonSchema),
  };
}

/** A protobuf `oneof` in ProtoJSON: exactly one of the listed keys must be set. */
const exactlyOneKeyOf: SchemaValidateFunction = (keys: string[], data: Record<string, unknown>): boolean => {
  const present = keys.filter((key) => data[key] !== undefined && data[key] !== null);
  if (present.length === 1) return true;
  // a2a-js 1.x serves its in-memory form, {"scheme": {"$case": "httpAuthSecurityScheme", "value": {...}}}.
  const inMemory = Object.entries(data).find(
    (entry): entry is [string, Record<string, unknown>] => isRecord(entry[1]) && typeof entry[1].$case === 'string',
  );
  const params = { keys, present, type: data.type, inMemoryKey: inMemory?.[0], inMemoryCase: inMemory?.[1].$case };
  exactlyOneKeyOf.errors = [{ keyword: 'exactlyOneKeyOf', params }];
  return false;
};

function toProblem(error: ErrorObject, card: Record<string, unknown>): CardProblem | null {
  const { path, value } = locate(card, error.instancePath);
  const subject = path === '' ? 'the card' : path;
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required': {
      const field = joinKey(path, String(params.missingProperty));
      return failure(field, `${field} is required${camelCaseHint(value, String(params.missingProperty))}`);
    }
    case 'type':
      return failure(path, `${subject} must be ${withArticle(String(params.type))}, got ${describeValue(value)}`);
    case 'enum':
      return failure(
        path,
        `${subject} must be one of ${quoteAll(params.allowedValues as unknown[])}, got ${describeValue(value)}`,
      );
    case 'minItems':
      return failure(path, `${subject} must not be empty`);
    case 'discriminator':
      return discriminatorProblem(error, path, value);
    case 'exactlyOneKeyOf':
      return oneofProblem(subject, path, params);
    case 'oneOf':
      // Reported through the discriminator, or by the variant's own errors.
      return null;
    default:
      return failure(path, `${subject} ${error.message ?? 'is invalid'}`);
  }
}

/** v0.3 security schemes: a missing or non-string `type` is already reported by `required` or `type`. */
function discriminatorProblem(error: ErrorObject, path: string, value: unknown): CardProblem | null {
  const tag = String((error.params as { tag: string }).tag);
  const tagValue = (value as Record<string, unknown>)[tag];
  if (typeof tagValue !== 'string') return null;
  const variants = ((error.parentSchema as SchemaObject | undefined)?.oneOf ?? []) as SchemaObject[];
  const allowed = variants.map((variant) => (variant.properties as Record<string, SchemaObject>)[tag].const);
  const field = joinKey(path, tag);
  return failure(field, `${field} must be one of ${quoteAll(allowed)}, got ${describeValue(tagValue)}`);
}

function oneofProblem(subject: string, path: string, params: Record<string, unknown>): CardProblem {
  const keys = params.keys as string[];
  const present = params.present as string[];
  if (present.length > 1) {
    return failure(path, `${subject} must set exactly one of ${keys.join(', ')}, but sets ${present.join(' and ')}`);
  }
  return failure(path, `${subject} must set one of ${keys.join(', ')}${oneofHint(params)}`);
}

/** Explains the two wrong shapes seen in the field: the v0.3 `type` form, and a2a-js 1.x's in-memory `$case` form. */
function oneofHint(params: Record<string, unknown>): string {
  if (typeof params.inMemoryKey === 'string' && typeof params.inMemoryCase === 'string') {
    const found = `{"${params.inMemoryKey}": {"$case": ${JSON.stringify(params.inMemoryCase)}, "value": ...}}`;
    return ` (it has ${found}, the in-memory form of the a2a-js SDK, not ProtoJSON; ProtoJSON is {${JSON.stringify(params.inMemoryCase)}: ...})`;
  }
  if (typeof params.type === 'string') {
    return ` (it has "type": ${describeValue(params.type)}, the A2A v0.3 form; v1.0 wraps the scheme, e.g. {"httpAuthSecurityScheme": {"scheme": "Bearer"}})`;
  }
  return '';
}

function failure(path: string, message: string): CardProblem {
  return { severity: 'error', path, message };
}

/** Turns an Ajv JSON pointer ("/skills/0/tags") into a readable path ("skills[0].tags") and the value there. */
function locate(root: unknown, pointer: string): { path: string; value: unknown } {
  let path = '';
  let node = root;
  if (pointer === '') return { path, value: node };
  for (const raw of pointer.slice(1).split('/')) {
    const segment = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(node)) {
      path = joinIndex(path, segment);
      node = node[Number(segment)];
    } else {
      path = joinKey(path, segment);
      node = isRecord(node) ? node[segment] : undefined;
    }
  }
  return { path, value: node };
}

/** A2A JSON is camelCase; ProtoJSON-minded producers sometimes emit the proto's snake_case names. */
function camelCaseHint(parent: unknown, field: string): string {
  const snake = field.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
  if (snake === field || !isRecord(parent) || !(snake in parent)) return '';
  return ` (found "${snake}"; A2A JSON uses camelCase field names)`;
}

function withArticle(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}
