import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Server } from '@grpc/grpc-js';
import type { PackageDefinition } from '@grpc/proto-loader';
import { GrpcOptions, Transport } from '@nestjs/microservices';
import { HealthImplementation, protoPath as healthProtoPath, type ServingStatus } from 'grpc-health-check';
import { join } from 'node:path';
import type { Logger as Pino } from 'pino';
import { PROTO_DIR } from '../../paths';
import { AppConfig } from '../config/app-config';
import { GrpcCallLog } from '../logging/grpc-call-log';
import { ROOT_LOGGER } from '../logging/pino-nest-logger';
import { recordGrpcCall } from '../metrics/grpc-metrics.interceptor';
import { Metrics } from '../metrics/metrics';
import { DescriptorSet } from './descriptor-set';
import { grpcCallEndInterceptor } from './grpc-call-end';
import { GrpcReflection } from './grpc-reflection';
import { limitGrpcInput } from './grpc-input-limits';
import { writeStructResponsesFast } from './struct-responses';

/** Our own services; every file here is loaded, served by Nest controllers and listed by reflection. */
export const PROTO_FILES = [
  'switchboard/v1/system.proto',
  'switchboard/v1/registry.proto',
  'switchboard/v1/tasks.proto',
  'switchboard/v2/system.proto',
  'switchboard/v2/registry.proto',
  'switchboard/v2/tasks.proto',
];

/** Hooks that add services Nest does not serve itself (e.g. the A2A SDK's) to the gRPC server. */
export type GrpcServerHook = (server: Server, definition: PackageDefinition) => void;

/** The full name of the service a grpc-js service definition describes (`/pkg.Service/Method` paths). */
function serviceNameOf(definition: object): string | undefined {
  const first = Object.values(definition)[0] as { path?: string } | undefined;
  return /^\/([^/]+)\//.exec(first?.path ?? '')?.[1];
}

/**
 * The gRPC side of the hybrid app: Nest's microservice options, the standard health service
 * (`grpc.health.v1.Health`), server reflection from buf's FileDescriptorSet, one access log line and one metric per call, and
 * draining on shutdown.
 */
@Injectable()
export class GrpcRuntime {
  readonly health = new HealthImplementation({ '': 'SERVING' });
  private readonly logger = new Logger('Grpc');
  private readonly callLog: GrpcCallLog;
  private readonly hooks: GrpcServerHook[] = [];
  /** Every service the server serves, by full name: health answers for each as for ''. */
  private readonly served = new Set<string>(['']);
  private status: ServingStatus = 'SERVING';
  private server?: Server;
  private draining = false;
  /** Reflection's files: the checked-in `buf build` FileDescriptorSet, read once at start. */
  private readonly descriptors = DescriptorSet.load();

  constructor(
    private readonly config: AppConfig,
    private readonly metrics: Metrics,
    @Inject(ROOT_LOGGER) pino: Pino,
  ) {
    this.callLog = new GrpcCallLog(pino);
  }

  /** grpc.health.v1 follows readiness, for '' and every served service alike; once draining it stays NOT_SERVING. */
  setServing(serving: boolean): void {
    if (this.draining) return;
    this.setStatus(serving ? 'SERVING' : 'NOT_SERVING');
  }

  /** The service names health answers for ('' and each served service). */
  servedServices(): string[] {
    return [...this.served];
  }

  addServerHook(hook: GrpcServerHook): void {
    this.hooks.push(hook);
  }

  options(): GrpcOptions {
    return {
      transport: Transport.GRPC,
      options: {
        url: `${this.config.grpc.host}:${this.config.grpc.port}`,
        package: ['switchboard.v1', 'switchboard.v2'],
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
        channelOptions: {
          interceptors: [
            grpcCallEndInterceptor((call) => {
              recordGrpcCall(this.metrics, call);
              this.callLog.write(call);
            }),
          ],
        },
        onLoadPackageDefinition: (definition, server) => this.onServer(server as Server, definition),
      },
    };
  }

  /** Stops taking calls, lets running ones finish until the deadline, then cuts the rest. */
  async drain(deadlineMs: number): Promise<void> {
    this.draining = true;
    this.setStatus('NOT_SERVING');
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

  private setStatus(status: ServingStatus): void {
    this.status = status;
    for (const service of this.served) this.health.setStatus(service, status);
  }

  /**
   * Every service added to the server - Nest's (added after this hook runs), health, reflection
   * and the A2A SDK's - gets a health status, so `Check("switchboard.v1.RegistryService")` answers
   * as `Check("")` does; unknown names stay NOT_FOUND.
   */
  private trackServices(server: Server): void {
    const addService = server.addService.bind(server);
    server.addService = (service, implementation) => {
      addService(service, implementation);
      const name = serviceNameOf(service);
      if (name === undefined) return;
      this.served.add(name);
      this.health.setStatus(name, this.status);
    };
  }

  private onServer(server: Server, definition: PackageDefinition): void {
    this.server = server;
    this.trackServices(server);
    limitGrpcInput(server, this.config.http.json);
    writeStructResponsesFast(server);
    new GrpcReflection(this.descriptors, () => this.served).addToServer(server);
    this.health.addToServer(server);
    for (const hook of this.hooks) hook(server, definition);
  }
}
