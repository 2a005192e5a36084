import { Global, Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { REDIS } from '../redis/redis.module';
import { RedisConnection } from '../redis/redis-connection';
import { InMemoryKeyValueStore } from './in-memory-key-value.store';
import { KeyValueStore } from './key-value-store';
import { RedisKeyValueStore } from './redis-key-value.store';

@Global()
@Module({
  providers: [
    {
      provide: KeyValueStore,
      inject: [AppConfig, REDIS],
      useFactory: (config: AppConfig, redis: RedisConnection | null): KeyValueStore =>
        redis ? new RedisKeyValueStore(redis, config.redis.keyPrefix) : new InMemoryKeyValueStore(),
    },
  ],
  exports: [KeyValueStore],
})
export class KvModule implements OnApplicationShutdown {
  constructor(@Inject(KeyValueStore) private readonly store: KeyValueStore) {}

  onApplicationShutdown(): void {
    if (this.store instanceof InMemoryKeyValueStore) this.store.close();
  }
}
