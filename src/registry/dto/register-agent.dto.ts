import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  IsIn,
  IsObject,
  IsOptional,
  IsString,
  Length,
  Matches,
  MaxLength,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { AGENT_AUTH_MODES, type AgentAuthMode } from '../entities/agent.entity';

export const AGENT_ID_PATTERN = /^[a-z0-9][a-z0-9-]{0,62}$/;

export class AgentAuthDto {
  @ApiProperty({ enum: AGENT_AUTH_MODES, description: 'How the hub authenticates to the agent' })
  @IsIn(AGENT_AUTH_MODES)
  mode: AgentAuthMode;

  @ApiPropertyOptional({ description: 'Header for api_key mode (default X-Api-Key)', example: 'X-Api-Key' })
  @IsOptional()
  @IsString()
  @Matches(/^[A-Za-z0-9-]{1,64}$/, { message: 'header must be an HTTP header name' })
  header?: string;

  @ApiPropertyOptional({ description: 'The key or token; stored encrypted, never returned', writeOnly: true })
  @ValidateIf((auth: AgentAuthDto) => auth.mode !== 'none')
  @IsString()
  @Length(1, 4096)
  secret?: string;
}

export class RegisterAgentDto {
  @ApiProperty({
    example: 'http://lights.local:9001',
    description: "The agent's base URL; its card is read from there",
  })
  @IsString()
  @MaxLength(2048)
  base_url: string;

  @ApiPropertyOptional({ example: 'lights', description: 'Slug for the agent (default: from the card name)' })
  @IsOptional()
  @Matches(AGENT_ID_PATTERN, {
    message: 'id must be 1-63 lower-case letters, digits or dashes, starting with a letter or digit',
  })
  id?: string;

  @ApiPropertyOptional({ type: AgentAuthDto })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => AgentAuthDto)
  auth?: AgentAuthDto;
}

export class ValidateAgentDto {
  @ApiProperty({ example: 'http://lights.local:9001' })
  @IsString()
  @MaxLength(2048)
  base_url: string;
}
