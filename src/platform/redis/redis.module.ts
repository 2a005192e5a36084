import { Global, Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { RedisConnection } from './redis-connection';

/** The process's Redis connection, or null when REDIS_URL is unset (in-process adapters). */
export const REDIS = Symbol('REDIS');

@Global()
@Module({
  providers: [
    {
      provide: REDIS,
      inject: [AppConfig],
      useFactory: (config: AppConfig) =>
        config.redis.mode === 'redis' ? RedisConnection.connect(config.redis.url) : null,
    },
  ],
  exports: [REDIS],
})
export class RedisModule implements OnApplicationShutdown {
  constructor(@Inject(REDIS) private readonly redis: RedisConnection | null) {}

  async onApplicationShutdown(): Promise<void> {
    await this.redis?.close();
  }
}
