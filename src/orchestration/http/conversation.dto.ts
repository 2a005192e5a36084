import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsObject, IsOptional, IsString, MaxLength, MinLength, ValidateNested } from 'class-validator';

/** What Home Assistant knows about where a request came from; only conversationId is used. */
export class ConversationContextDto {
  @ApiPropertyOptional({
    nullable: true,
    example: '01j9x7c3f5a8b2d4e6f8a0b2c4d6e8f0',
    description: 'The conversation to continue; null or absent starts one (its id is returned)',
  })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(128)
  conversationId?: string | null;

  @ApiPropertyOptional({ example: '2026-11-22T18:04:05.123Z' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  timestamp?: string | null;

  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(256) deviceId?: string | null;
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(256) deviceArea?: string | null;
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(256) deviceType?: string | null;
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(256) userId?: string | null;
  @ApiPropertyOptional() @IsOptional() @IsString() @MaxLength(256) location?: string | null;
}

/** `POST /api/conversation`: the REST generation of the Home Assistant integration. */
export class ConversationRequestDto {
  @ApiProperty({ example: 'Turn on the kitchen lights' })
  @IsString()
  @MinLength(1)
  @MaxLength(100_000)
  text: string;

  @ApiPropertyOptional({ type: ConversationContextDto })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => ConversationContextDto)
  context?: ConversationContextDto | null;

  @ApiPropertyOptional({ nullable: true, description: 'Accepted for compatibility; not used' })
  @IsOptional()
  @IsString()
  @MaxLength(100_000)
  promptOverride?: string | null;
}

export class ConversationReplyDto {
  @ApiProperty({ description: 'What to say to the user' })
  text: string;

  @ApiProperty({ enum: ['response', 'question', 'error'] })
  type: 'response' | 'question' | 'error';

  @ApiProperty({ description: 'Send it back in context.conversationId to continue the conversation' })
  conversationId: string;

  @ApiProperty({ description: 'The answer is a question: keep listening' })
  needsInput: boolean;

  @ApiPropertyOptional({ description: 'The orchestrator error behind a type "error" reply' })
  error?: { errorCode: string; userMessage: string; suggestedAction?: string };
}
