import { ArgumentMetadata, Injectable, ValidationPipe } from '@nestjs/common';
import { DomainError } from '../errors/domain-error';
import { validationProblems } from '../errors/validation-problems';
import { splitInput } from './dto-input';

/**
 * The global pipe: Nest's ValidationPipe (whitelist, transform; failures as VALIDATION_FAILED
 * naming each field), given input made safe for class-transformer first (splitInput), as
 * validateInput does for the other transports.
 */
@Injectable()
export class InputValidationPipe extends ValidationPipe {
  constructor() {
    super({
      whitelist: true,
      transform: true,
      exceptionFactory: (errors) => DomainError.validation(validationProblems(errors)),
    });
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const type = metadata.metatype;
    if (!type || !this.toValidate(metadata)) return super.transform(value, metadata);
    const input = splitInput(type as new () => object, value);
    const result: unknown = await super.transform(input.rest, metadata);
    if (result !== null && typeof result === 'object') input.restore(result);
    return result;
  }
}
