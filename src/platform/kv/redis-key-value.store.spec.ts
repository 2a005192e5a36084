import { deleteRedisKeys, realRedisUrl, uniqueName } from '../../../test/support/backends';
import { RedisConnection } from '../redis/redis-connection';
import { describeKeyValueStoreContract } from './key-value-store.contract';
import { RedisKeyValueStore } from './redis-key-value.store';

// Runs against the real Redis when REDIS_URL is set (CI's second run), on a unique key prefix.
(realRedisUrl ? describe : describe.skip)('Redis adapter', () => {
  describeKeyValueStoreContract('redis', async () => {
    const connection = await RedisConnection.connect(realRedisUrl!);
    const prefixes = [`${uniqueName('sbtest')}:`, `${uniqueName('sbtest')}:`];
    return {
      create: async () => new RedisKeyValueStore(connection, prefixes[0]),
      isolated: async () => new RedisKeyValueStore(connection, prefixes[1]),
      teardown: async () => {
        for (const prefix of prefixes) await deleteRedisKeys(realRedisUrl!, prefix);
        await connection.close();
      },
    };
  });
});
