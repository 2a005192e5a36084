import { getMetadataStorage, ValidateBy, ValidationOptions } from 'class-validator';

const IS_JSON_OBJECT = 'isJsonObject';

/**
 * A free-form JSON object (task inputs, product attributes): checked to be an object, then kept
 * exactly as sent. class-transformer would otherwise walk into it, drop members named
 * `constructor` or `__proto__` and trip on some of them; validateInput hands such fields past it.
 */
export function IsJsonObject(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: IS_JSON_OBJECT,
      validator: {
        validate: (value: unknown) => typeof value === 'object' && value !== null && !Array.isArray(value),
        defaultMessage: () => '$property must be an object',
      },
    },
    options,
  );
}

/** The properties of a class (inherited and mapped ones included) declared with @IsJsonObject. */
export function jsonObjectFields(type: new (...args: never[]) => object): string[] {
  const metadata = getMetadataStorage().getTargetValidationMetadatas(type, '', true, false);
  return [...new Set(metadata.filter((m) => m.name === IS_JSON_OBJECT).map((m) => m.propertyName))];
}
