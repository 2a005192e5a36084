import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

export type RoutingOutcome = 'answered' | 'clarification' | 'input-required' | 'error';

/** One routing decision of the orchestrator: the routing log. */
@Entity({ name: 'routing_decisions' })
@Index('idx_routing_decisions_created', ['createdAt'])
@Index('idx_routing_decisions_context', ['owner', 'contextId', 'createdAt'])
export class RoutingDecisionEntity {
  @PrimaryColumn('uuid')
  id: string;

  @Column('timestamptz', { name: 'created_at' })
  createdAt: Date;

  @Column('text')
  owner: string;

  @Column('text', { name: 'context_id' })
  contextId: string;

  @Column('text', { name: 'task_id', nullable: true })
  taskId: string | null;

  /** The user's words, cut to 500 characters. */
  @Column('text', { name: 'request_text' })
  requestText: string;

  /** Agents chosen, primary first. */
  @Column('jsonb')
  agents: string[];

  @Column('real', { nullable: true })
  confidence: number | null;

  @Column('text')
  reasoning: string;

  /** The agents the router weighed, best first (those named when it asked). */
  @Column('jsonb', { default: () => "'[]'::jsonb" })
  candidates: string[];

  /** What the turn answered (the reply, the question or the error), cut to 2,000 characters. */
  @Column('text', { name: 'answer_text', nullable: true })
  answerText: string | null;

  /** default, llm, llm-fallback, previous-agent (an agent's question answered), clarification. */
  @Column('text')
  router: string;

  @Column('int', { name: 'duration_ms' })
  durationMs: number;

  @Column('text')
  outcome: RoutingOutcome;

  @Column('text', { name: 'error_code', nullable: true })
  errorCode: string | null;
}
