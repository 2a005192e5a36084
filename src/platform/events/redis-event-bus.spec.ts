import { realRedisUrl, uniqueName } from '../../../test/support/backends';
import { RedisConnection } from '../redis/redis-connection';
import { describeEventBusContract } from './event-bus.contract';
import { RedisEventBus } from './redis-event-bus';

// Runs against the real Redis when REDIS_URL is set; the peer bus has its own connections,
// as a second replica would.
(realRedisUrl ? describe : describe.skip)('Redis adapter', () => {
  describeEventBusContract('redis', async () => {
    const prefix = `${uniqueName('sbtest')}:`;
    const connections: RedisConnection[] = [];
    const create = async () => {
      const connection = await RedisConnection.connect(realRedisUrl!);
      connections.push(connection);
      return new RedisEventBus(connection, prefix);
    };
    return {
      create,
      peer: create,
      teardown: async () => Promise.all(connections.map((c) => c.close())).then(() => undefined),
    };
  });
});
