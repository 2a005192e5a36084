import { Global, Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { REDIS } from '../redis/redis.module';
import { RedisConnection } from '../redis/redis-connection';
import { EventBus } from './event-bus';
import { InProcessEventBus } from './in-process-event-bus';
import { RedisEventBus } from './redis-event-bus';

@Global()
@Module({
  providers: [
    {
      provide: EventBus,
      inject: [AppConfig, REDIS],
      useFactory: (config: AppConfig, redis: RedisConnection | null): EventBus =>
        redis ? new RedisEventBus(redis, config.redis.keyPrefix) : new InProcessEventBus(),
    },
  ],
  exports: [EventBus],
})
export class EventsModule implements OnApplicationShutdown {
  constructor(@Inject(EventBus) private readonly bus: EventBus) {}

  onApplicationShutdown(): void {
    if (this.bus instanceof InProcessEventBus) this.bus.close();
  }
}
