import { MigrationInterface, QueryRunner } from 'typeorm';

/** Agent-wide webhooks: every task of one owner with one agent notifies them (MCP configure_push_notifications). */
export class CreatePushSubscriptions1764400000000 implements MigrationInterface {
  name = 'CreatePushSubscriptions1764400000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE a2a_push_subscriptions (
        id          uuid PRIMARY KEY,
        agent_id    text NOT NULL,
        owner       text NOT NULL,
        url         text NOT NULL,
        events      text[] NOT NULL CHECK (cardinality(events) > 0
                      AND events <@ ARRAY['status_update', 'artifact_update']::text[]),
        created_at  timestamptz NOT NULL,
        updated_at  timestamptz NOT NULL,
        UNIQUE (agent_id, owner, url)
      )`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE a2a_push_subscriptions`);
  }
}
