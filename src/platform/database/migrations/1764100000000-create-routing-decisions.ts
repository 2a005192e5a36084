import { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateRoutingDecisions1764100000000 implements MigrationInterface {
  name = 'CreateRoutingDecisions1764100000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE routing_decisions (
        id           uuid PRIMARY KEY,
        created_at   timestamptz NOT NULL,
        owner        text NOT NULL,
        context_id   text NOT NULL,
        task_id      text,
        request_text text NOT NULL,
        agents       jsonb NOT NULL,
        confidence   real,
        reasoning    text NOT NULL,
        router       text NOT NULL,
        duration_ms  integer NOT NULL,
        outcome      text NOT NULL CHECK (outcome IN ('answered', 'clarification', 'input-required', 'error')),
        error_code   text
      )`);
    await runner.query(`CREATE INDEX idx_routing_decisions_created ON routing_decisions (created_at)`);
    await runner.query(
      `CREATE INDEX idx_routing_decisions_context ON routing_decisions (owner, context_id, created_at)`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE routing_decisions`);
  }
}
