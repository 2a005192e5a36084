import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsDateString,
  IsIn,
  IsOptional,
  IsString,
  Length,
  Matches,
} from 'class-validator';
import { SCOPES, Scope } from '../scopes';

export class CreateApiKeyDto {
  @ApiProperty({ example: 'home-assistant', description: 'A label for people; 1-100 characters' })
  @IsString()
  @Length(1, 100)
  name: string;

  @ApiProperty({ enum: SCOPES, isArray: true, example: ['agents:read', 'messages'] })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayUnique()
  @IsIn(SCOPES, { each: true, message: `scopes must contain only: ${SCOPES.join(', ')}` })
  scopes: Scope[];

  @ApiPropertyOptional({
    description: 'Identity the key acts as: keys with one owner share tasks and conversations (default: the key alone)',
  })
  @IsOptional()
  @IsString()
  @Length(1, 100)
  @Matches(/^[A-Za-z0-9._@:-]+$/, { message: 'owner may contain letters, digits and . _ @ : - only' })
  owner?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'When the key stops working (default: never)' })
  @IsOptional()
  @IsDateString({ strict: true })
  expires_at?: string;
}
