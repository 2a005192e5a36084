import { Global, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { ThrottlerModule } from '@nestjs/throttler';
import { AppConfig } from '../config/app-config';
import { KeyValueStore } from '../kv/key-value-store';
import { KeyValueThrottlerStorage } from './key-value-throttler.storage';
import { RateLimitGuard, rateLimitThrottlers } from './rate-limit.guard';
import { RateLimiter } from './rate-limiter';

/** Import after AuthModule: the guard reads the caller the API-key guard attached. */
@Global()
@Module({
  imports: [
    ThrottlerModule.forRootAsync({
      inject: [AppConfig, KeyValueStore],
      useFactory: (config: AppConfig, kv: KeyValueStore) => ({
        throttlers: rateLimitThrottlers(config),
        storage: new KeyValueThrottlerStorage(kv),
      }),
    }),
  ],
  providers: [RateLimiter, { provide: APP_GUARD, useClass: RateLimitGuard }],
  exports: [RateLimiter],
})
export class RateLimitModule {}
