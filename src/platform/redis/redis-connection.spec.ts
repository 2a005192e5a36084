import { hasRedisServer, PrivateRedis } from '../../../test/support/private-redis';
import { ErrorCode } from '../errors/error-code';
import { RedisConnection } from './redis-connection';

// A redis-server of the test's own, frozen with SIGSTOP: the socket stays open, nothing answers.
(hasRedisServer ? describe : describe.skip)('RedisConnection against a stalled server', () => {
  let redis: PrivateRedis;
  let connection: RedisConnection;

  beforeAll(async () => {
    redis = await PrivateRedis.start();
    connection = await RedisConnection.connect(redis.url);
  });

  afterAll(async () => {
    redis?.resume();
    await connection?.close();
    await redis?.down();
  });

  it('fails commands with SERVICE_UNAVAILABLE within the deadline, then works again', async () => {
    await expect(connection.run((c) => c.ping())).resolves.toBe('PONG');
    redis.pause();
    const started = Date.now();
    await expect(connection.run((c) => c.ping())).rejects.toMatchObject({ code: ErrorCode.SERVICE_UNAVAILABLE });
    const waited = Date.now() - started;
    expect(waited).toBeGreaterThanOrEqual(2_000);
    expect(waited).toBeLessThan(4_000);
    // Stalled: the next command is refused at once instead of queueing behind the first.
    const refusedAt = Date.now();
    await expect(connection.run((c) => c.ping())).rejects.toThrow(/Redis is not answering/);
    expect(Date.now() - refusedAt).toBeLessThan(500);

    redis.resume();
    await waitFor(async () => (await connection.run((c) => c.ping()).catch(() => undefined)) === 'PONG');
  });

  it('closes within a moment while the server does not answer, however many commands wait', async () => {
    const other = await RedisConnection.connect(redis.url);
    redis.pause();
    try {
      const pending = other.run((c) => c.ping()).catch(() => 'refused');
      const started = Date.now();
      await other.close();
      expect(Date.now() - started).toBeLessThan(4_000);
      await expect(pending).resolves.toBe('refused');
    } finally {
      redis.resume();
    }
  });
});

async function waitFor(check: () => Promise<boolean>, timeoutMs = 5_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('condition not met in time');
}
