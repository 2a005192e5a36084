import { Type } from 'class-transformer';
import {
  IsBoolean,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  IsUrl,
  IsUUID,
  Max,
  Min,
  MinLength,
  ValidateNested,
} from 'class-validator';
import { validateInput } from '../../platform/validation/validate-input';
import { TASK_STATUSES, TaskStatus } from '../entities/task.entity';
import { LIST_MAX_LIMIT, ListRequest } from '../task-tree.service';

/** The largest tasks.list offset: deeper pages are better reached by narrower filters. */
export const LIST_MAX_OFFSET = 10_000_000;

/** tasks.list filters (JSON-RPC params, gRPC ListTasksRequest). */
export class ListParamsDto {
  @IsOptional()
  @IsIn(TASK_STATUSES)
  status?: TaskStatus;

  @IsOptional()
  @IsString()
  @MinLength(1)
  user_id?: string;

  /** Task ids are UUIDs; anything else must not reach the uuid column. */
  @IsOptional()
  @IsUUID()
  parent_id?: string;

  @IsOptional()
  @IsBoolean()
  root_only?: boolean;

  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(LIST_MAX_LIMIT)
  limit?: number;

  /** Bounded so a number past PostgreSQL's bigint is a clear error, not a failed query. */
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(LIST_MAX_OFFSET)
  offset?: number;
}

/** Where an execution posts its state changes. */
export class PushConfigDto {
  @IsUrl({ protocols: ['http', 'https'], require_tld: false, require_protocol: true })
  url!: string;

  @IsOptional()
  @IsIn(['POST', 'PUT'])
  method?: 'POST' | 'PUT';

  @IsOptional()
  @IsObject()
  headers?: Record<string, string>;
}

export class ExecuteParamsDto {
  @IsOptional()
  @IsBoolean()
  use_streaming?: boolean;

  @IsOptional()
  @ValidateNested()
  @Type(() => PushConfigDto)
  push_notification_config?: PushConfigDto;
}

export function listRequest(plain: unknown): ListRequest {
  const query = validateInput(ListParamsDto, plain);
  return {
    status: query.status,
    userId: query.user_id,
    parentId: query.parent_id,
    rootOnly: query.root_only,
    limit: query.limit,
    offset: query.offset,
  };
}
