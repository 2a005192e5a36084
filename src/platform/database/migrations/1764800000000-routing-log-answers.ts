import { MigrationInterface, QueryRunner } from 'typeorm';

/** What a routing decision weighed and what the turn answered: the agents that scored, and the reply. */
export class RoutingLogAnswers1764800000000 implements MigrationInterface {
  name = 'RoutingLogAnswers1764800000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE routing_decisions ADD COLUMN candidates jsonb NOT NULL DEFAULT '[]'::jsonb`);
    await runner.query(`ALTER TABLE routing_decisions ADD COLUMN answer_text text`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE routing_decisions DROP COLUMN answer_text`);
    await runner.query(`ALTER TABLE routing_decisions DROP COLUMN candidates`);
  }
}
