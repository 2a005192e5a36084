import type {
  sendUnaryData,
  Server,
  ServerUnaryCall,
  ServiceDefinition,
  UntypedServiceImplementation,
} from '@grpc/grpc-js';
import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { isObservable, lastValueFrom } from 'rxjs';
import { ApiKeyService } from '../auth/api-key.service';
import { keyFromMetadata } from '../auth/presented-key';
import { attachPrincipal } from '../auth/principal-holder';
import { grpcError } from '../errors/grpc-error.mapping';
import { HttpErrorResponder } from '../errors/http-error.responder';
import { toDomainError } from '../errors/to-domain-error';
import { RateLimitGuard } from '../rate-limit/rate-limit.guard';
import { RateLimiter } from '../rate-limit/rate-limiter';
import { GrpcMethodBinding, GrpcMethodCatalog } from './grpc-method-catalog';
import { GrpcRuntime } from './grpc-runtime';

/**
 * The hub's own unary gRPC methods served straight from grpc-js, ahead of Nest's microservice
 * pipeline (its RPC dispatch, guard and interceptor chains and the rxjs wrapping of each call), as
 * the A2A HTTP lane does for HTTP. Each call meets the same decisions as under Nest, made by the
 * same code: the key and scopes by ApiKeyService.authorize with the scopes the handler's
 * decorators ask (accessOf, as ApiKeyGuard), the handler's rate-limit policy by RateLimiter for
 * the caller RateLimitGuard would track, errors by the one gRPC error table (grpcError) after the
 * logging AllExceptionsFilter does. The handler is the controller method itself, its arguments
 * found as Nest finds them (GrpcMethodCatalog). Decoding and input limits, health, reflection, the
 * access log and metrics are the server's (GrpcRuntime) and apply as before; streaming methods,
 * and any handler with a pipeline of its own, stay with Nest.
 */
@Injectable()
export class GrpcLane implements OnModuleInit {
  private readonly logger = new Logger('Grpc');

  constructor(
    private readonly runtime: GrpcRuntime,
    private readonly catalog: GrpcMethodCatalog,
    private readonly keys: ApiKeyService,
    private readonly limiter: RateLimiter,
    private readonly errors: HttpErrorResponder,
  ) {}

  onModuleInit(): void {
    this.runtime.addServerHook((server) => this.mount(server, this.catalog.bindings()));
  }

  /** From now on, every service added to `server` has its bound unary methods answered by the lane. */
  private mount(server: Server, bindings: Map<string, GrpcMethodBinding>): void {
    const add = server.addService.bind(server);
    server.addService = (service, implementation) =>
      add(service, this.implementation(service, implementation, bindings));
    this.logger.debug(
      `${bindings.size} @GrpcMethod handlers bound; their unary calls are served ahead of Nest's pipeline`,
    );
  }

  private implementation(
    service: ServiceDefinition,
    implementation: UntypedServiceImplementation,
    bindings: Map<string, GrpcMethodBinding>,
  ): UntypedServiceImplementation {
    const replaced: UntypedServiceImplementation = { ...implementation };
    for (const [name, method] of Object.entries(service)) {
      const binding = bindings.get(method.path.slice(1));
      if (!binding || method.requestStream || method.responseStream) continue;
      const handle = (call: ServerUnaryCall<unknown, unknown>, callback: sendUnaryData<unknown>) =>
        void this.answer(binding, call, callback);
      // grpc-js looks a handler up by the method's name, then by its original (camelCase) name.
      for (const key of [name, method.originalName]) if (key && key in implementation) replaced[key] = handle;
    }
    return replaced;
  }

  private async answer(
    binding: GrpcMethodBinding,
    call: ServerUnaryCall<unknown, unknown>,
    callback: sendUnaryData<unknown>,
  ): Promise<void> {
    const context = binding.contextFor([call.request, call.metadata, call]);
    try {
      if (binding.access !== 'public') {
        attachPrincipal(context, await this.keys.authorize(keyFromMetadata(call.metadata), binding.access));
      }
      if (binding.policy) await this.limiter.consume(binding.policy, RateLimitGuard.trackerOf(binding.policy, context));
      const result = binding.invoke(context);
      callback(null, await (isObservable(result) ? lastValueFrom(result) : result));
    } catch (exception) {
      const error = toDomainError(exception);
      this.errors.log(error, exception);
      callback(grpcError(error), null);
    }
  }
}
