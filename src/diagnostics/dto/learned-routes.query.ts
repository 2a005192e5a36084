import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { MAX_LEARNED_PER_OWNER } from '../../orchestration/learning/learned-routes';

/** GET /internal/orchestration/learned-routes. */
export class LearnedRoutesQuery {
  @ApiPropertyOptional({ description: "Only this owner's (an API key's owner)" })
  @IsOptional()
  @IsString()
  @MaxLength(256)
  owner?: string;

  @ApiPropertyOptional({ minimum: 1, maximum: 1000, default: MAX_LEARNED_PER_OWNER })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(1000)
  limit?: number;
}
