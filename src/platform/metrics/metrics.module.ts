import { Global, Module } from '@nestjs/common';
import { Metrics } from './metrics';

/** The app's Prometheus instruments, for every module (the CLIs get them too, and never serve them). */
@Global()
@Module({ providers: [Metrics], exports: [Metrics] })
export class MetricsModule {}
