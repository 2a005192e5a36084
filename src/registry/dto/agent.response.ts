import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { AGENT_AUTH_MODES, type AgentAuthMode, type AgentStatus } from '../entities/agent.entity';

/** An agent in the registry, as GET /api/agents/{id} shows it. Never any secret. */
export class AgentRecordResponse {
  @ApiProperty() agent_id: string;
  @ApiProperty() name: string;
  @ApiProperty({ enum: ['local', 'remote'] }) kind: 'local' | 'remote';
  @ApiProperty({ description: 'Remote: the URL it was registered with. Local: its A2A base on this hub.' })
  base_url: string;
  @ApiProperty({ enum: ['connected', 'unreachable', 'disabled'] }) status: AgentStatus;
  @ApiProperty({ description: "The agent's own card (remote) or the hub's card for it (local)" })
  card: Record<string, unknown>;
  @ApiProperty({ enum: AGENT_AUTH_MODES }) auth_mode: AgentAuthMode;
  @ApiPropertyOptional({ format: 'date-time', nullable: true }) last_seen_at: string | null;
  @ApiProperty({ format: 'date-time' }) created_at: string;
}

/** The admin view: how the hub reaches the agent and its last check - still no secret. */
export class ExtendedAgentRecordResponse extends AgentRecordResponse {
  @ApiPropertyOptional({ nullable: true, description: 'Header used in api_key mode' }) auth_header: string | null;
  @ApiProperty({ description: 'Whether a credential is stored (its value is never shown)' }) has_secret: boolean;
  @ApiPropertyOptional({ nullable: true }) card_url: string | null;
  @ApiPropertyOptional({ nullable: true, description: 'Why the last health check failed' }) last_check_error:
    string | null;
  @ApiProperty({ format: 'date-time' }) updated_at: string;
}
