import { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateApiKeys1763800000000 implements MigrationInterface {
  name = 'CreateApiKeys1763800000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE api_keys (
        id            uuid PRIMARY KEY,
        name          text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
        owner         text NOT NULL CHECK (length(owner) BETWEEN 1 AND 100),
        lookup_prefix text NOT NULL,
        key_hash      text NOT NULL UNIQUE CHECK (key_hash ~ '^[0-9a-f]{64}$'),
        scopes        text[] NOT NULL,
        source        text NOT NULL CHECK (source IN ('created', 'env', 'first-start')),
        created_at    timestamptz NOT NULL DEFAULT now(),
        expires_at    timestamptz,
        revoked_at    timestamptz,
        last_used_at  timestamptz
      )`);
    await runner.query(`CREATE INDEX idx_api_keys_lookup_prefix ON api_keys (lookup_prefix)`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE api_keys`);
  }
}
