import { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateA2aTables1763900000000 implements MigrationInterface {
  name = 'CreateA2aTables1763900000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE a2a_tasks (
        agent_id   text NOT NULL,
        owner      text NOT NULL,
        task_id    text NOT NULL,
        context_id text NOT NULL,
        state      text NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        final_task jsonb,
        PRIMARY KEY (agent_id, owner, task_id)
      )`);
    await runner.query(
      `CREATE INDEX idx_a2a_tasks_listing ON a2a_tasks (agent_id, owner, updated_at DESC, task_id DESC)`,
    );
    await runner.query(`CREATE INDEX idx_a2a_tasks_context ON a2a_tasks (agent_id, owner, context_id)`);
    await runner.query(`
      CREATE TABLE a2a_push_configs (
        agent_id                text NOT NULL,
        owner                   text NOT NULL,
        task_id                 text NOT NULL,
        config_id               text NOT NULL,
        url                     text NOT NULL,
        token_sealed            text,
        auth_scheme             text,
        auth_credentials_sealed text,
        wire_version            text NOT NULL,
        created_at              timestamptz NOT NULL,
        PRIMARY KEY (agent_id, owner, task_id, config_id)
      )`);
    await runner.query(`
      CREATE TABLE a2a_push_deliveries (
        id          uuid PRIMARY KEY,
        agent_id    text NOT NULL,
        task_id     text NOT NULL,
        config_id   text NOT NULL,
        target      text NOT NULL,
        event       text NOT NULL,
        outcome     text NOT NULL CHECK (outcome IN ('delivered', 'failed')),
        attempts    int NOT NULL,
        http_status int,
        error       text,
        created_at  timestamptz NOT NULL
      )`);
    await runner.query(
      `CREATE INDEX idx_a2a_push_deliveries_task ON a2a_push_deliveries (agent_id, task_id, created_at)`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE a2a_push_deliveries`);
    await runner.query(`DROP TABLE a2a_push_configs`);
    await runner.query(`DROP TABLE a2a_tasks`);
  }
}
