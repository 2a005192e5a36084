import { Global, Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { Metrics } from '../metrics/metrics';
import { REDIS } from '../redis/redis.module';
import { RedisConnection } from '../redis/redis-connection';
import { EventBus } from './event-bus';
import { InProcessEventBus } from './in-process-event-bus';
import { MeteredEventBus } from './metered-event-bus';
import { RedisEventBus } from './redis-event-bus';

@Global()
@Module({
  providers: [
    {
      provide: EventBus,
      inject: [AppConfig, REDIS, Metrics],
      useFactory: (config: AppConfig, redis: RedisConnection | null, metrics: Metrics): EventBus =>
        new MeteredEventBus(
          redis ? new RedisEventBus(redis, config.redis.keyPrefix) : new InProcessEventBus(),
          metrics.eventBusFailures,
        ),
    },
  ],
  exports: [EventBus],
})
export class EventsModule implements OnApplicationShutdown {
  constructor(@Inject(EventBus) private readonly bus: MeteredEventBus) {}

  onApplicationShutdown(): void {
    if (this.bus.inner instanceof InProcessEventBus) this.bus.inner.close();
  }
}
