import { MiddlewareConsumer, Module, NestModule } from '@nestjs/common';
import { APP_FILTER, APP_PIPE } from '@nestjs/core';
import { A2aModule } from './a2a/a2a.module';
import { AuthModule } from './platform/auth/auth.module';
import { ConfigModule } from './platform/config/config.module';
import { DatabaseModule } from './platform/database/database.module';
import { AllExceptionsFilter } from './platform/errors/all-exceptions.filter';
import { EventsModule } from './platform/events/events.module';
import { GrpcLaneModule } from './platform/grpc/grpc-lane.module';
import { HealthModule } from './platform/health/health.module';
import { JsonBodyMiddleware } from './platform/http/json-body.middleware';
import { InputValidationPipe } from './platform/validation/input-validation.pipe';
import { KvModule } from './platform/kv/kv.module';
import { MetricsModule } from './platform/metrics/metrics.module';
import { LoggingModule } from './platform/logging/logging.module';
import { OutboundModule } from './platform/outbound/outbound.module';
import { PlatformModule } from './platform/platform.module';
import { RateLimitModule } from './platform/rate-limit/rate-limit.module';
import { RedisModule } from './platform/redis/redis.module';
import { SystemModule } from './platform/system/system.module';
import { OrchestrationModule } from './orchestration/orchestration.module';
import { CommerceModule } from './commerce/commerce.module';
import { ConsoleModule } from './console/console.module';
import { DiagnosticsModule } from './diagnostics/diagnostics.module';
import { McpModule } from './mcp/mcp.module';
import { RegistryModule } from './registry/registry.module';
import { TaskHostModule } from './task-host/task-host.module';

@Module({
  imports: [
    ConfigModule,
    LoggingModule,
    MetricsModule,
    DatabaseModule.forRoot(),
    RedisModule,
    KvModule,
    EventsModule,
    PlatformModule,
    OutboundModule,
    // Guard order matters: AuthModule's guard identifies the caller the rate limiter counts.
    AuthModule,
    RateLimitModule,
    GrpcLaneModule,
    HealthModule,
    SystemModule,
    A2aModule,
    RegistryModule,
    OrchestrationModule,
    TaskHostModule,
    CommerceModule,
    McpModule,
    DiagnosticsModule,
    ConsoleModule,
  ],
  providers: [
    { provide: APP_FILTER, useClass: AllExceptionsFilter },
    { provide: APP_PIPE, useClass: InputValidationPipe },
  ],
})
export class AppModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    // Request ids, metrics and logs, and the A2A routes come earlier, from bootstrap (see mountBeforeRoutes).
    consumer.apply(JsonBodyMiddleware).forRoutes('*');
  }
}
