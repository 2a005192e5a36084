import { Injectable, Logger, type ExecutionContext, type Type } from '@nestjs/common';
import {
  EXCEPTION_FILTERS_METADATA,
  GUARDS_METADATA,
  INTERCEPTORS_METADATA,
  PIPES_METADATA,
  CUSTOM_ROUTE_ARGS_METADATA,
} from '@nestjs/common/constants';
import { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host';
import { GrpcMethodStreamingType, Transport } from '@nestjs/microservices';
import { PARAM_ARGS_METADATA, PATTERN_METADATA, TRANSPORT_METADATA } from '@nestjs/microservices/constants';
import { DEFAULT_GRPC_CALLBACK_METADATA } from '@nestjs/microservices/context/rpc-metadata-constants';
import { RpcParamtype } from '@nestjs/microservices/enums/rpc-paramtype.enum';
import { accessOf } from '../auth/auth.decorators';
import type { Scope } from '../auth/scopes';
import { RateLimitGuard } from '../rate-limit/rate-limit.guard';
import type { RateLimitPolicy } from '../rate-limit/rate-limit.decorator';

/**
 * A `@GrpcMethod` handler and what its decorators ask, read once at start. The decorator does not
 * say whether the method streams its answer; the lane, which serves only unary methods, reads that
 * from the service definition.
 */
export interface GrpcMethodBinding {
  /** `package.Service/Method`, as the method's `@GrpcMethod` names it. */
  name: string;
  /** `public`, or the scopes the caller's key must hold (ApiKeyGuard's rule: accessOf). */
  access: 'public' | Scope[];
  /** The rate-limit policy the call counts against (RateLimitGuard's rule: policyOf). */
  policy?: RateLimitPolicy;
  /** The context Nest would give guards and param decorators for a call: [request, metadata, call]. */
  contextFor(args: unknown[]): ExecutionContext;
  /** Calls the handler with its arguments resolved as Nest resolves them. */
  invoke(context: ExecutionContext): unknown;
}

/** Where a handler's argument comes from, given the call's context. */
type ArgumentSource = (context: ExecutionContext) => unknown;

/** Payload types the global ValidationPipe passes through untouched (ValidationPipe.toValidate). */
const UNVALIDATED_TYPES: unknown[] = [undefined, String, Boolean, Number, Array, Object, Buffer, Date];

/**
 * Reads every controller's `@GrpcMethod` handlers and their decorators once, at start: the
 * scopes (`@RequireScopes`/`@Public`), the rate-limit policy (`@RateLimit`), and how each argument
 * is found (`@Payload`, `@Ctx`, `@GrpcCall`, custom decorators such as `@CurrentPrincipal`, or
 * none: request, metadata, call). A handler that asks for more of Nest's pipeline - its own
 * guards, interceptors, pipes or filters, or a payload class the global ValidationPipe would
 * check - is left out, and so stays served by Nest.
 */
@Injectable()
export class GrpcMethodCatalog {
  private readonly logger = new Logger('Grpc');

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly reflector: Reflector,
  ) {}

  bindings(): Map<string, GrpcMethodBinding> {
    const bound = new Map<string, GrpcMethodBinding>();
    const left: string[] = [];
    for (const wrapper of this.discovery.getControllers()) {
      const instance = wrapper.instance as Record<string, unknown> | undefined;
      if (!instance || !wrapper.isDependencyTreeStatic() || !wrapper.metatype) continue;
      const controller = wrapper.metatype as Type;
      for (const methodName of this.scanner.getAllMethodNames(Object.getPrototypeOf(instance))) {
        const handler = instance[methodName] as (...args: unknown[]) => unknown;
        const patterns = grpcPatterns(handler);
        if (patterns.length === 0) continue;
        const binding = this.bind(controller, instance, methodName, handler);
        for (const { service, rpc } of patterns) {
          const name = `${service}/${rpc}`;
          if (binding) bound.set(name, { ...binding, name });
          else left.push(name);
        }
      }
    }
    if (left.length) this.logger.debug(`Served by Nest's pipeline: ${left.join(', ')}`);
    return bound;
  }

  private bind(
    controller: Type,
    instance: object,
    methodName: string,
    handler: (...args: unknown[]) => unknown,
  ): Omit<GrpcMethodBinding, 'name'> | undefined {
    if (ownPipeline(controller) || ownPipeline(handler)) return undefined;
    const sources = argumentSources(controller, methodName);
    if (!sources) return undefined;
    const contextFor = (args: unknown[]) => {
      const context = new ExecutionContextHost(args, controller, handler);
      context.setType('rpc');
      return context;
    };
    return {
      access: accessOf(this.reflector, handler, controller),
      policy: RateLimitGuard.policyOf(contextFor([])),
      contextFor,
      invoke: (context) =>
        handler.apply(
          instance,
          sources.map((source) => source(context)),
        ),
    };
  }
}

/** The gRPC methods a handler serves by `@GrpcMethod` (`@GrpcStreamMethod`'s request streams stay with Nest). */
function grpcPatterns(handler: unknown): { service: string; rpc: string }[] {
  if (typeof handler !== 'function') return [];
  if (Reflect.getMetadata(TRANSPORT_METADATA, handler) !== Transport.GRPC) return [];
  const patterns = (Reflect.getMetadata(PATTERN_METADATA, handler) ?? []) as {
    service?: string;
    rpc?: string;
    streaming?: string;
  }[];
  return patterns.filter(
    (p): p is { service: string; rpc: string } =>
      typeof p.service === 'string' &&
      typeof p.rpc === 'string' &&
      p.streaming === (GrpcMethodStreamingType.NO_STREAMING as string),
  );
}

/** Guards, interceptors, pipes or filters of its own (besides the global ones the lane stands in for). */
function ownPipeline(target: object): boolean {
  return [GUARDS_METADATA, INTERCEPTORS_METADATA, PIPES_METADATA, EXCEPTION_FILTERS_METADATA].some(
    (key) => ((Reflect.getMetadata(key, target) as unknown[] | undefined) ?? []).length > 0,
  );
}

interface ParamMetadata {
  index: number;
  data?: unknown;
  pipes?: unknown[];
  factory?: (data: unknown, context: ExecutionContext) => unknown;
}

/**
 * Each argument's source, as Nest's RpcContextCreator and RpcParamsFactory find it; undefined when
 * an argument needs a pipe (its own, or the global ValidationPipe for a payload class).
 */
function argumentSources(controller: Type, methodName: string): ArgumentSource[] | undefined {
  const metadata = (Reflect.getMetadata(PARAM_ARGS_METADATA, controller, methodName) ??
    DEFAULT_GRPC_CALLBACK_METADATA) as Record<string, ParamMetadata>;
  const types = (Reflect.getMetadata('design:paramtypes', controller.prototype, methodName) ?? []) as unknown[];
  const entries = Object.entries(metadata);
  const sources: ArgumentSource[] = Array.from(
    { length: Math.max(0, ...entries.map(([, p]) => p.index + 1)) },
    () => () => undefined,
  );
  for (const [key, param] of entries) {
    if ((param.pipes ?? []).length > 0) return undefined;
    if (key.includes(CUSTOM_ROUTE_ARGS_METADATA)) {
      const factory = param.factory;
      if (typeof factory !== 'function') return undefined;
      sources[param.index] = (context) => factory(param.data, context);
      continue;
    }
    const type = Number(key.split(':')[0]) as RpcParamtype;
    if (!UNVALIDATED_TYPES.includes(types[param.index])) return undefined;
    const data = param.data as string | undefined;
    if (type === RpcParamtype.PAYLOAD) {
      sources[param.index] = (context) => {
        const payload = context.getArgByIndex<Record<string, unknown> | undefined>(0);
        return data ? payload?.[data] : payload;
      };
    } else if (type === RpcParamtype.CONTEXT) sources[param.index] = (context) => context.getArgByIndex(1);
    else if (type === RpcParamtype.GRPC_CALL) sources[param.index] = (context) => context.getArgByIndex(2);
    else return undefined;
  }
  return sources;
}
