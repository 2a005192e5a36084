import { MigrationInterface, QueryRunner } from 'typeorm';

/** Requests users settled by naming an agent, per owner: the orchestrator routes them directly next time. */
export class CreateLearnedRoutes1764600000000 implements MigrationInterface {
  name = 'CreateLearnedRoutes1764600000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE learned_routes (
        id          uuid PRIMARY KEY,
        owner       text NOT NULL,
        phrase      text NOT NULL,
        example     text NOT NULL,
        agent_id    text NOT NULL,
        created_at  timestamptz NOT NULL
      )`);
    await runner.query(`CREATE UNIQUE INDEX uq_learned_routes_phrase ON learned_routes (owner, phrase)`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE learned_routes`);
  }
}
