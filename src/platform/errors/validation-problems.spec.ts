import 'reflect-metadata';
import { plainToInstance, Type } from 'class-transformer';
import { IsObject, IsOptional, IsString, MaxLength, MinLength, ValidateNested, validateSync } from 'class-validator';
import { validationProblems } from './validation-problems';

class Context {
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(8)
  conversationId?: string;
}

class Turn {
  @IsString()
  @MinLength(1)
  @MaxLength(10)
  text!: string;

  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => Context)
  context?: Context;
}

const problems = (plain: object) => validationProblems(validateSync(plainToInstance(Turn, plain)));

describe('validationProblems', () => {
  it('names only the type a field must have when it has the wrong one', () => {
    expect(problems({ text: 123 })).toEqual([{ field: 'text', reason: 'must be a string' }]);
    expect(problems({ text: 'hi', context: 'x' })).toEqual([{ field: 'context', reason: 'must be an object' }]);
    expect(problems({ text: 'hi', context: { conversationId: { a: 1 } } })).toEqual([
      { field: 'context.conversationId', reason: 'must be a string' },
    ]);
  });

  it('names every other problem of a field of the right type, nested ones with dotted paths', () => {
    expect(problems({ text: '' })).toEqual([{ field: 'text', reason: 'must be longer than or equal to 1 characters' }]);
    expect(problems({ text: 'x'.repeat(11), context: { conversationId: 'y'.repeat(9) } })).toEqual([
      { field: 'text', reason: 'must be shorter than or equal to 10 characters' },
      { field: 'context.conversationId', reason: 'must be shorter than or equal to 8 characters' },
    ]);
  });
});
