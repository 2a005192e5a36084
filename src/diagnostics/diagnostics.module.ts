import { Module } from '@nestjs/common';
import { A2aModule } from '../a2a/a2a.module';
import { OrchestrationModule } from '../orchestration/orchestration.module';
import { HealthModule } from '../platform/health/health.module';
import { RegistryModule } from '../registry/registry.module';
import { TaskHostModule } from '../task-host/task-host.module';
import { DiagnosticsController } from './diagnostics.controller';
import { DiagnosticsService } from './diagnostics.service';
import { MetricsController } from './metrics.controller';
import { TelemetryService } from './telemetry.service';

/**
 * Explanation (scope `internal`): consolidated health, the routing-log feed, agent resolution,
 * Prometheus metrics and gRPC health. It reads the other modules through their services.
 */
@Module({
  imports: [A2aModule, OrchestrationModule, RegistryModule, TaskHostModule, HealthModule],
  controllers: [DiagnosticsController, MetricsController],
  providers: [DiagnosticsService, TelemetryService],
})
export class DiagnosticsModule {}
