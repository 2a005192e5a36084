import { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateAgents1764000000000 implements MigrationInterface {
  name = 'CreateAgents1764000000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE agents (
        id                 text PRIMARY KEY CHECK (id ~ '^[a-z0-9][a-z0-9-]{0,62}$'),
        name               text NOT NULL,
        base_url           text NOT NULL,
        card_url           text NOT NULL,
        card               jsonb NOT NULL,
        status             text NOT NULL CHECK (status IN ('connected', 'unreachable', 'disabled')),
        auth_mode          text NOT NULL CHECK (auth_mode IN ('none', 'api_key', 'bearer')),
        auth_header        text,
        auth_secret_sealed text,
        last_seen_at       timestamptz,
        last_check_error   text,
        created_at         timestamptz NOT NULL,
        updated_at         timestamptz NOT NULL
      )`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE agents`);
  }
}
