import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsISO8601, IsNumber, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import type { RoutingOutcome } from '../../orchestration/routing-log/routing-decision.entity';

export const ROUTING_OUTCOMES: RoutingOutcome[] = ['answered', 'clarification', 'input-required', 'error'];
export const ROUTING_LOG_DEFAULT_LIMIT = 50;
export const ROUTING_LOG_MAX_LIMIT = 500;

/** GET /internal/orchestration/routing-log: filters and the page. */
export class RoutingLogQuery {
  @ApiPropertyOptional({ description: 'Only decisions that chose this agent (primary or additional)' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  agent?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @MaxLength(200)
  contextId?: string;

  @ApiPropertyOptional({ enum: ROUTING_OUTCOMES })
  @IsOptional()
  @IsIn(ROUTING_OUTCOMES)
  outcome?: RoutingOutcome;

  @ApiPropertyOptional({ format: 'date-time', description: 'Decisions at or after this time' })
  @IsOptional()
  @IsISO8601({ strict: true })
  since?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'Decisions before this time' })
  @IsOptional()
  @IsISO8601({ strict: true })
  until?: string;

  @ApiPropertyOptional({ minimum: 0, maximum: 1 })
  @IsOptional()
  @Type(() => Number)
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  @Max(1)
  minConfidence?: number;

  @ApiPropertyOptional({ minimum: 0, maximum: 1 })
  @IsOptional()
  @Type(() => Number)
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  @Max(1)
  maxConfidence?: number;

  @ApiPropertyOptional({ description: 'The next_cursor of the page before' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  cursor?: string;

  @ApiPropertyOptional({ minimum: 1, maximum: ROUTING_LOG_MAX_LIMIT, default: ROUTING_LOG_DEFAULT_LIMIT })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(ROUTING_LOG_MAX_LIMIT)
  limit?: number;
}
