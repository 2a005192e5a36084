import { PartialType, PickType } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsNumber,
  IsOptional,
  IsString,
  IsUUID,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateNested,
} from 'class-validator';
import { DomainError } from '../../platform/errors/domain-error';
import { validateInput } from '../../platform/validation/validate-input';
import { TASK_STATUSES, TaskStatus } from '../entities/task.entity';
import { IsJsonObject } from '../../platform/validation/is-json-object';

export const MAX_TASKS_PER_BATCH = 100_000;

/** `{id}` or `{name}` of a task in the same tree; `required` defaults to true. */
export class DependencyInputDto {
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(256)
  id?: string;

  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(256)
  name?: string;

  @IsOptional()
  @IsBoolean()
  required?: boolean;
}

/** One task as clients send it to tasks.create / tasks.execute (apflow field names). */
export class TaskInputDto {
  @IsOptional()
  @IsUUID()
  id?: string;

  @IsString()
  @MinLength(1)
  @MaxLength(256)
  name!: string;

  /** Only an admin may create tasks for another owner; others get their own. */
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(256)
  user_id?: string;

  /** A task id, or the name of a task in the same batch. */
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(256)
  parent_id?: string;

  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(3)
  priority?: number;

  @IsOptional()
  @IsJsonObject()
  inputs?: Record<string, unknown>;

  @IsOptional()
  @IsJsonObject()
  params?: Record<string, unknown>;

  @IsOptional()
  @IsJsonObject()
  schemas?: Record<string, unknown>;

  @IsOptional()
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => DependencyInputDto)
  dependencies?: DependencyInputDto[];
}

/** The fields tasks.update may change (flat, as apflow sends them, or under `updates`). */
export class TaskUpdateDto extends PartialType(
  PickType(TaskInputDto, ['name', 'priority', 'inputs', 'params', 'schemas', 'dependencies'] as const),
) {
  @IsOptional()
  @IsIn(TASK_STATUSES)
  status?: TaskStatus;

  @IsOptional()
  result?: unknown;

  @IsOptional()
  @IsString()
  @MaxLength(10_000)
  error?: string;

  @IsOptional()
  @IsNumber()
  @Min(0)
  @Max(1)
  progress?: number;
}

/** What tasks.update may set but not clear: their columns hold a value always (result and error may be cleared). */
const NOT_NULL_UPDATES = ['name', 'priority', 'inputs', 'params', 'schemas', 'dependencies', 'status', 'progress'];

/**
 * tasks.update's changes, validated. A null is refused for a field that cannot be cleared (the
 * DTO's optional fields let null through, as class-validator's IsOptional does).
 */
export function taskUpdate(plain: Record<string, unknown>): TaskUpdateDto {
  const cleared = NOT_NULL_UPDATES.filter((field) => plain[field] === null);
  if (cleared.length > 0) throw DomainError.validation(cleared.map((field) => ({ field, reason: 'cannot be null' })));
  return validateInput(TaskUpdateDto, plain);
}
