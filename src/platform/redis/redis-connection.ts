import { Logger } from '@nestjs/common';
import { createClient, ErrorReply, RedisClientType } from 'redis';
import { redactUrl } from '../logging/redact-url';
import { DomainError } from '../errors/domain-error';
import { ErrorCode } from '../errors/error-code';
import { CommandDeadline } from './command-deadline';

const COMMAND_TIMEOUT_MS = 2_000;
const CONNECT_TIMEOUT_MS = 5_000;
const BOOT_WAIT_MS = 10_000;

export type RedisClient = RedisClientType;

/**
 * The node-redis clients of one process: a command client and, on first use, a subscriber
 * connection for pub/sub. Commands never queue while disconnected - they fail at once with
 * SERVICE_UNAVAILABLE - and the clients reconnect on their own with a capped backoff.
 */
export class RedisConnection {
  private readonly logger = new Logger('Redis');
  private subscriberClient?: Promise<RedisClient>;
  private closed = false;
  private readonly deadline = new CommandDeadline(COMMAND_TIMEOUT_MS);

  private constructor(
    readonly client: RedisClient,
    private readonly url: string,
  ) {}

  static async connect(url: string): Promise<RedisConnection> {
    const connection = new RedisConnection(RedisConnection.create(url), url);
    try {
      await connection.start(connection.client, 'commands');
    } catch (error) {
      connection.deadline.close();
      throw error;
    }
    return connection;
  }

  private static create(url: string): RedisClient {
    return createClient({
      url,
      disableOfflineQueue: true,
      // No per-command timeout here: CommandDeadline bounds every command with one timer.
      socket: {
        connectTimeout: CONNECT_TIMEOUT_MS,
        reconnectStrategy: (retries) => Math.min(100 * 2 ** retries, 2_000),
      },
    });
  }

  /** A second connection in subscriber mode, shared by all EventBus subscriptions. */
  subscriber(): Promise<RedisClient> {
    this.subscriberClient ??= (async () => {
      const sub = this.client.duplicate() as RedisClient;
      await this.start(sub, 'subscriber');
      return sub;
    })();
    return this.subscriberClient;
  }

  get isReady(): boolean {
    return this.client.isReady;
  }

  /**
   * Runs a command, turning connection failures into SERVICE_UNAVAILABLE; so is a command
   * unanswered after COMMAND_TIMEOUT_MS (see CommandDeadline).
   */
  async run<T>(command: (client: RedisClient) => Promise<T>): Promise<T> {
    try {
      return await this.deadline.run(() => command(this.client));
    } catch (error) {
      throw toRedisError(error);
    }
  }

  /**
   * Closes both clients once the commands in flight are answered or past their deadline. A server
   * that stopped answering never sends the replies node-redis' close() waits for (a shutdown
   * during a Redis outage hung there): then the clients are destroyed, failing what still waits.
   */
  async close(): Promise<void> {
    this.closed = true;
    await this.deadline.idle(COMMAND_TIMEOUT_MS);
    const stalled = this.deadline.stalled;
    this.deadline.close();
    const sub = await this.subscriberClient?.catch(() => undefined);
    for (const client of [sub, this.client]) {
      if (!client) continue;
      if (client.isOpen && !stalled) await client.close().catch(() => client.destroy());
      else client.destroy();
    }
  }

  private async start(client: RedisClient, role: string): Promise<void> {
    let healthy = false;
    client.on('ready', () => {
      if (!healthy) this.logger.log(`Redis ${role} connection ready (${redactUrl(this.url)})`);
      healthy = true;
    });
    client.on('error', (error: Error) => {
      if (healthy && !this.closed) this.logger.warn(`Redis ${role} connection lost: ${error.message}; reconnecting`);
      healthy = false;
    });
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        client.connect(),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error(`no answer within ${BOOT_WAIT_MS} ms`)), BOOT_WAIT_MS);
        }),
      ]);
    } catch (error) {
      client.destroy();
      throw new Error(`Redis at ${redactUrl(this.url)} is unreachable: ${(error as Error).message}`);
    } finally {
      clearTimeout(timer);
    }
  }
}

export function toRedisError(error: unknown): Error {
  if (error instanceof DomainError) return error;
  // A reply error is a bug (wrong type, bad script), not an outage; so are our own type errors.
  if (error instanceof ErrorReply || error instanceof TypeError || error instanceof RangeError) return error;
  return new DomainError(ErrorCode.SERVICE_UNAVAILABLE, 'Redis is unavailable; try again shortly', {
    retryAfterSeconds: 1,
    cause: error,
  });
}
