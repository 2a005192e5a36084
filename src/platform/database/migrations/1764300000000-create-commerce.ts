import { MigrationInterface, QueryRunner } from 'typeorm';

/** The agents.json shop: catalog (with full-text search), sessions, carts, orders, contact messages. */
export class CreateCommerce1764300000000 implements MigrationInterface {
  name = 'CreateCommerce1764300000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE products (
        id           text PRIMARY KEY CHECK (id ~ '^prod_[A-Za-z0-9_-]{1,64}$'),
        name         text NOT NULL CHECK (length(name) BETWEEN 1 AND 300),
        description  text NOT NULL DEFAULT '',
        price_minor  bigint NOT NULL CHECK (price_minor >= 0),
        currency     char(3) NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
        category     text NOT NULL DEFAULT '',
        stock        integer NOT NULL CHECK (stock >= 0),
        attributes   jsonb NOT NULL DEFAULT '{}',
        created_at   timestamptz NOT NULL DEFAULT now(),
        search       tsvector GENERATED ALWAYS AS (
                       setweight(to_tsvector('english', name), 'A') ||
                       setweight(to_tsvector('english', category), 'B') ||
                       setweight(to_tsvector('english', description), 'C')) STORED
      )`);
    await runner.query(`CREATE INDEX idx_products_search ON products USING gin (search)`);
    await runner.query(`CREATE INDEX idx_products_category ON products (category, name, id)`);
    await runner.query(`CREATE INDEX idx_products_name ON products (name, id)`);

    await runner.query(`
      CREATE TABLE shop_sessions (
        id                  uuid PRIMARY KEY,
        token_hash          text NOT NULL UNIQUE,
        checkout_token_hash text UNIQUE,
        created_at          timestamptz NOT NULL,
        expires_at          timestamptz NOT NULL,
        ended_at            timestamptz
      )`);
    await runner.query(`
      CREATE TABLE cart_lines (
        session_id  uuid NOT NULL REFERENCES shop_sessions (id) ON DELETE CASCADE,
        product_id  text NOT NULL REFERENCES products (id),
        quantity    integer NOT NULL CHECK (quantity > 0),
        added_at    timestamptz NOT NULL,
        PRIMARY KEY (session_id, product_id)
      )`);
    await runner.query(`
      CREATE TABLE orders (
        id             uuid PRIMARY KEY,
        session_id     uuid NOT NULL UNIQUE REFERENCES shop_sessions (id),
        lines          jsonb NOT NULL,
        subtotal_minor bigint NOT NULL,
        currency       char(3) NOT NULL,
        created_at     timestamptz NOT NULL
      )`);
    await runner.query(`
      CREATE TABLE contact_messages (
        id          uuid PRIMARY KEY,
        session_id  uuid,
        name        text NOT NULL,
        email       text NOT NULL,
        message     text NOT NULL,
        created_at  timestamptz NOT NULL
      )`);
  }

  async down(runner: QueryRunner): Promise<void> {
    for (const table of ['contact_messages', 'orders', 'cart_lines', 'shop_sessions', 'products'])
      await runner.query(`DROP TABLE ${table}`);
  }
}
