import { DynamicModule, Module } from '@nestjs/common';
import { AuthCoreModule } from '../platform/auth/auth-core.module';
import { ConfigModule } from '../platform/config/config.module';
import { DatabaseModule } from '../platform/database/database.module';
import { EventsModule } from '../platform/events/events.module';
import { MetricsModule } from '../platform/metrics/metrics.module';
import { RedisModule } from '../platform/redis/redis.module';

/**
 * What the command-line tools need: the same configuration, database and services as the
 * server. In embedded mode they attach to the running server's database when there is one.
 */
@Module({})
export class CliModule {
  static forRoot(options: { runMigrations?: boolean }): DynamicModule {
    return {
      module: CliModule,
      imports: [
        ConfigModule,
        DatabaseModule.forRoot({ attachToRunning: true, runMigrations: options.runMigrations }),
        RedisModule,
        MetricsModule,
        EventsModule,
        AuthCoreModule,
      ],
    };
  }
}
