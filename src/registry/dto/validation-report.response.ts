import { ApiProperty } from '@nestjs/swagger';

class CardProblemResponse {
  @ApiProperty({ enum: ['error', 'warning'] }) severity: 'error' | 'warning';
  @ApiProperty({ example: 'skills[0].tags' }) path: string;
  @ApiProperty() message: string;
}

/** POST /api/agents/validate: the card checked against the A2A schema, nothing registered. */
export class ValidationReportResponse {
  @ApiProperty({ nullable: true }) name: string | null;
  @ApiProperty({ nullable: true }) url: string | null;
  @ApiProperty({ nullable: true }) protocol_version: string | null;
  @ApiProperty() version_valid: boolean;
  @ApiProperty() has_skills: boolean;
  @ApiProperty() skill_count: number;
  @ApiProperty() streaming: boolean;
  @ApiProperty() push_notifications: boolean;
  @ApiProperty({ enum: ['passed', 'warnings', 'failed'] }) validation: 'passed' | 'warnings' | 'failed';
  @ApiProperty({ type: [CardProblemResponse] }) problems: CardProblemResponse[];
  @ApiProperty({ description: 'Where the card was found' }) card_url: string;
}
