import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { EmbeddedPostgres } from './embedded-postgres';

/** The node-postgres client's socket (not public API; read for a test of what arrives on it). */
function socketOf(client: Client): NodeJS.EventEmitter {
  return (client as unknown as { connection: { stream: NodeJS.EventEmitter } }).connection.stream;
}

describe('EmbeddedPostgres', () => {
  let dataDir: string;
  let database: EmbeddedPostgres;
  let client: Client;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'sb-embedded-pg-'));
    database = await EmbeddedPostgres.start(dataDir, 1);
    const { socketDir, port, user, database: name } = database.connection;
    client = new Client({ host: socketDir, port, user, database: name });
    await client.connect();
  }, 60_000);

  afterAll(async () => {
    await client?.end();
    await database?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("keeps PostgreSQL's page cache small (32MB, not a server's 128MB), its other settings as initdb wrote them", async () => {
    const settings = await client.query(
      "SELECT current_setting('shared_buffers') AS buffers, current_setting('TimeZone') AS zone, current_setting('search_path') AS path",
    );
    expect(settings.rows[0]).toEqual({ buffers: '32MB', zone: 'UTC', path: 'public' });
  });

  it('answers a parameterised statement with all its replies in one send, not one per protocol message', async () => {
    await client.query('CREATE TABLE IF NOT EXISTS coalesce_check (id text PRIMARY KEY, n int)');
    await client.query('INSERT INTO coalesce_check VALUES ($1, $2)', ['warm', 0]);
    const chunks: number[] = [];
    const onData = (chunk: Buffer) => chunks.push(chunk.length);
    socketOf(client).on('data', onData);
    try {
      // Parse, Bind, Describe, Execute, Sync sent at once; ParseComplete, BindComplete, NoData,
      // CommandComplete and ReadyForQuery come back.
      const result = await client.query('INSERT INTO coalesce_check VALUES ($1, $2)', ['one', 1]);
      expect(result.rowCount).toBe(1);
    } finally {
      socketOf(client).off('data', onData);
    }
    expect(chunks).toHaveLength(1);
    const rows = await client.query<{ n: number }>('SELECT n FROM coalesce_check WHERE id = $1', ['one']);
    expect(rows.rows).toEqual([{ n: 1 }]);
  });

  it('still answers a statement the database refuses, and the connection goes on', async () => {
    await expect(client.query('INSERT INTO coalesce_check VALUES ($1, $2)', ['one', 2])).rejects.toThrow(
      /duplicate key/,
    );
    const rows = await client.query<{ count: string }>('SELECT count(*) FROM coalesce_check');
    expect(rows.rows[0].count).toBe('2');
  });

  it('answers clients sending at once each with its own result, statements reaching the socket in pieces', async () => {
    const { socketDir, port, user, database: name } = database.connection;
    const clients = Array.from({ length: 4 }, () => new Client({ host: socketDir, port, user, database: name }));
    await Promise.all(clients.map((c) => c.connect()));
    try {
      // Values big enough to reach the socket in several pieces, so a Bind arrives after its Parse.
      const answers = await Promise.all(
        clients.map(async (c, i) => {
          const mine: boolean[] = [];
          for (let round = 0; round < 15; round++) {
            const value = `${i}:${round}:`.padEnd(100_000 + i * 1_000, String.fromCharCode(97 + i));
            const result = await c.query<{ v: string }>('SELECT $1::text AS v', [value]);
            mine.push(result.rows[0].v === value);
          }
          return mine;
        }),
      );
      expect(answers.flat().every(Boolean)).toBe(true);
    } finally {
      await Promise.all(clients.map((c) => c.end()));
    }
  });
});
