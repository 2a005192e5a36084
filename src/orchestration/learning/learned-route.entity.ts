import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * A request a user settled by naming an agent when the orchestrator asked: the same phrasing from
 * the same owner goes to that agent directly from then on (see LearnedRoutes).
 */
@Entity({ name: 'learned_routes' })
@Index('uq_learned_routes_phrase', ['owner', 'phrase'], { unique: true })
export class LearnedRouteEntity {
  @PrimaryColumn('uuid')
  id: string;

  @Column('text')
  owner: string;

  /** The request's terms, sorted: what a later request must have to match. */
  @Column('text')
  phrase: string;

  /** The request as the user said it. */
  @Column('text')
  example: string;

  @Column('text', { name: 'agent_id' })
  agentId: string;

  @Column('timestamptz', { name: 'created_at' })
  createdAt: Date;
}
