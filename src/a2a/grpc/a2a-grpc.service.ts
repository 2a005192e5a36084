import { legacyGrpcService, LegacyA2AService } from '@a2a-js/sdk/compat/v0_3/server/grpc';
import { A2AService, grpcService } from '@a2a-js/sdk/server/grpc';
import type {
  Metadata,
  sendUnaryData,
  Server,
  ServerUnaryCall,
  ServerWritableStream,
  ServiceDefinition,
  UntypedServiceImplementation,
} from '@grpc/grpc-js';
import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { keyFromMetadata } from '../../platform/auth/presented-key';
import type { Principal } from '../../platform/auth/principal';
import { DomainError } from '../../platform/errors/domain-error';
import { ErrorCode } from '../../platform/errors/error-code';
import { grpcError } from '../../platform/errors/grpc-error.mapping';
import { toDomainError } from '../../platform/errors/to-domain-error';
import { GrpcRuntime } from '../../platform/grpc/grpc-runtime';
import { A2aGate } from '../a2a-gate';
import { A2aUser } from '../hosting/a2a-user';
import { AgentHost } from '../hosting/agent-host';
import { contextFor } from '../hosting/call-context';
import { servedVersion } from '../http/a2a-version';
import { grpcAgentId, RoutingRequestHandler } from './routing-request-handler';

type AnyCall = ServerUnaryCall<unknown, unknown> | ServerWritableStream<unknown, unknown>;

/**
 * Serves the SDK's A2A gRPC services - `lf.a2a.v1.A2AService` (v1.0) and the v0.3 service - on
 * the hub's gRPC port, for every hosted agent (chosen by tenant or `x-agent-id` metadata).
 * These are plain grpc-js services that Nest's guards do not see, and the SDK answers any error
 * that is not an A2A error with UNKNOWN; so each call first passes the A2A gate (A2aGate): API
 * key with the `messages` scope (UNAUTHENTICATED / PERMISSION_DENIED), an existing agent
 * (NOT_FOUND) and the `conversation` rate limit (RESOURCE_EXHAUSTED) - as over HTTP.
 */
@Injectable()
export class A2aGrpcService implements OnModuleInit {
  private readonly logger = new Logger('A2A gRPC');
  private readonly principals = new WeakMap<object, Principal>();

  constructor(
    private readonly grpc: GrpcRuntime,
    private readonly host: AgentHost,
    private readonly gate: A2aGate,
  ) {}

  onModuleInit(): void {
    this.grpc.addServerHook((server) => this.register(server));
  }

  private register(server: Server): void {
    const options = {
      requestHandler: new RoutingRequestHandler(this.host),
      userBuilder: async (call: { metadata: Metadata }) => {
        const principal = this.principals.get(call);
        if (!principal) throw new Error('A2A gRPC call reached the SDK without passing the gate');
        return new A2aUser(principal);
      },
      contextBuilder: contextFor((options) => grpcAgentId(options.tenant, options.headers['x-agent-id']), 'grpc'),
    };
    server.addService(A2AService, this.gated(grpcService(options), A2AService));
    server.addService(LegacyA2AService, this.gated(legacyGrpcService(options), LegacyA2AService));
  }

  private async admit(call: AnyCall): Promise<void> {
    // The SDK compares the version exactly: a served version spelt another way (`1`, `1.0.2`) is
    // given in its canonical spelling; anything else is left for the SDK to refuse.
    const asked = call.metadata.get('a2a-version')[0]?.toString();
    const served = asked === undefined ? undefined : servedVersion(asked);
    if (served && served !== asked) call.metadata.set('a2a-version', served);
    const agentId = grpcAgentId(
      (call.request as { tenant?: string } | undefined)?.tenant,
      call.metadata.get('x-agent-id')[0]?.toString(),
    );
    this.principals.set(call, await this.gate.admit(keyFromMetadata(call.metadata), agentId));
  }

  /** Why a call was turned away; unexpected failures are logged, as the HTTP filter does. */
  private refusal(error: unknown): DomainError {
    const domain = toDomainError(error);
    if (domain.code === ErrorCode.INTERNAL) {
      this.logger.error(`A2A gRPC gate failed: ${(error as Error)?.message ?? String(error)}`, (error as Error)?.stack);
    }
    return domain;
  }

  /** Wraps every method of an SDK service implementation so calls pass `admit` first. */
  private gated(impl: UntypedServiceImplementation, definition: ServiceDefinition): UntypedServiceImplementation {
    const wrapped: UntypedServiceImplementation = {};
    for (const [name, method] of Object.entries(impl)) {
      const handler = method as (...args: unknown[]) => unknown;
      wrapped[name] = definition[name]?.responseStream
        ? (call: ServerWritableStream<unknown, unknown>) => {
            this.admit(call).then(
              () => handler(call),
              (error: unknown) => {
                call.emit('error', grpcError(this.refusal(error)));
                call.end();
              },
            );
          }
        : (call: ServerUnaryCall<unknown, unknown>, callback: sendUnaryData<unknown>) => {
            this.admit(call).then(
              () => handler(call, callback),
              (error: unknown) => callback(grpcError(this.refusal(error)), null),
            );
          };
    }
    return wrapped;
  }
}
