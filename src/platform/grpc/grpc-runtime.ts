import { Injectable, Logger } from '@nestjs/common';
import type { Server } from '@grpc/grpc-js';
import type { PackageDefinition } from '@grpc/proto-loader';
import { ReflectionService } from '@grpc/reflection';
import { GrpcOptions, Transport } from '@nestjs/microservices';
import { HealthImplementation, protoPath as healthProtoPath } from 'grpc-health-check';
import { join } from 'node:path';
import { PROTO_DIR } from '../../paths';
import { AppConfig } from '../config/app-config';
import { grpcMetricsInterceptor } from '../metrics/grpc-metrics.interceptor';
import { Metrics } from '../metrics/metrics';
import { limitGrpcInput } from './grpc-input-limits';

/** Our own services; every file here is loaded, served by Nest controllers and listed by reflection. */
export const PROTO_FILES = [
  'switchboard/v1/system.proto',
  'switchboard/v1/registry.proto',
  'switchboard/v1/tasks.proto',
];

/** Hooks that add services Nest does not serve itself (e.g. the A2A SDK's) to the gRPC server. */
export type GrpcServerHook = (server: Server, definition: PackageDefinition) => void;

/**
 * The gRPC side of the hybrid app: Nest's microservice options, the standard health service
 * (`grpc.health.v1.Health`), server reflection, and draining on shutdown.
 */
@Injectable()
export class GrpcRuntime {
  readonly health = new HealthImplementation({ '': 'SERVING' });
  private readonly logger = new Logger('Grpc');
  private readonly hooks: GrpcServerHook[] = [];
  private server?: Server;
  private draining = false;

  constructor(
    private readonly config: AppConfig,
    private readonly metrics: Metrics,
  ) {}

  /** grpc.health.v1 follows readiness; once draining it stays NOT_SERVING. */
  setServing(serving: boolean): void {
    if (this.draining) return;
    this.health.setStatus('', serving ? 'SERVING' : 'NOT_SERVING');
  }

  addServerHook(hook: GrpcServerHook): void {
    this.hooks.push(hook);
  }

  options(): GrpcOptions {
    return {
      transport: Transport.GRPC,
      options: {
        url: `${this.config.grpc.host}:${this.config.grpc.port}`,
        package: ['switchboard.v1'],
        protoPath: [...PROTO_FILES.map((file) => join(PROTO_DIR, file)), healthProtoPath],
        loader: {
          keepCase: true,
          longs: String,
          enums: String,
          defaults: true,
          oneofs: true,
          includeDirs: [PROTO_DIR],
        },
        maxReceiveMessageLength: this.config.http.maxBodyBytes,
        // grpc-js takes server interceptors with its server options, which Nest passes through.
        channelOptions: { interceptors: [grpcMetricsInterceptor(this.metrics)] },
        onLoadPackageDefinition: (definition, server) => this.onServer(server as Server, definition),
      },
    };
  }

  /** Stops taking calls, lets running ones finish until the deadline, then cuts the rest. */
  async drain(deadlineMs: number): Promise<void> {
    this.draining = true;
    this.health.setStatus('', 'NOT_SERVING');
    const server = this.server;
    if (!server) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        this.logger.warn(`gRPC calls still running after ${deadlineMs} ms; cancelling them`);
        server.forceShutdown();
        resolve();
      }, deadlineMs);
      server.tryShutdown(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  private onServer(server: Server, definition: PackageDefinition): void {
    this.server = server;
    limitGrpcInput(server, this.config.http.json);
    new ReflectionService(definition).addToServer(server);
    this.health.addToServer(server);
    for (const hook of this.hooks) hook(server, definition);
  }
}
