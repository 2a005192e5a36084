import { Injectable, OnModuleInit, RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { DiscoveryService, MetadataScanner } from '@nestjs/core';
import type { Request, Response } from 'express';
import type { DomainError } from '../errors/domain-error';
import type { JsonRpcCodeTable } from '../errors/json-rpc-error.mapping';
import { JSON_RPC_ENDPOINT, JsonRpcEndpointOptions } from './json-rpc-endpoint.decorator';

/** Writes an error in an API's own shape (e.g. the agents.json envelope). */
export type ErrorWriter = (error: DomainError, res: Response) => void;

/**
 * Per-path HTTP policies that must be known before routing:
 * - JSON-RPC routes: errors raised on them, even before routing (a body that is not JSON, a
 *   missing key), are answered as JSON-RPC error objects. They are the handlers marked
 *   @JsonRpcEndpoint, found when the app starts, at the paths their routes declare;
 * - APIs with their own error shape: their errors, even before routing, are written by them
 *   (registered with the predicate their middleware uses too).
 * (The A2A routes are served ahead of Nest by A2aHttpLane, which knows its own.)
 */
@Injectable()
export class RoutePolicies implements OnModuleInit {
  private readonly jsonRpc = new Map<string, JsonRpcEndpointOptions>();
  private readonly errorWriters: { matches: (req: Pick<Request, 'originalUrl'>) => boolean; write: ErrorWriter }[] = [];

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
  ) {}

  registerErrorWriter(matches: (req: Pick<Request, 'originalUrl'>) => boolean, write: ErrorWriter): void {
    this.errorWriters.push({ matches, write });
  }

  errorWriterFor(req: Pick<Request, 'originalUrl'>): ErrorWriter | undefined {
    return this.errorWriters.find((writer) => writer.matches(req))?.write;
  }

  /** Finds the JSON-RPC endpoints: every controller is instantiated by now. */
  onModuleInit(): void {
    for (const { metatype, instance } of this.discovery.getControllers()) {
      if (!metatype || !instance) continue;
      const prototype = Object.getPrototypeOf(instance) as Record<string, unknown>;
      for (const name of this.scanner.getAllMethodNames(prototype)) {
        const handler = prototype[name] as object;
        const options = Reflect.getMetadata(JSON_RPC_ENDPOINT, handler) as JsonRpcEndpointOptions | undefined;
        if (!options) continue;
        const method = RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod];
        for (const path of routePaths(
          Reflect.getMetadata(PATH_METADATA, metatype),
          Reflect.getMetadata(PATH_METADATA, handler),
        )) {
          this.addJsonRpc(method, path, options);
        }
      }
    }
  }

  /** A JSON-RPC endpoint at `method path` (what @JsonRpcEndpoint declares on a route handler). */
  addJsonRpc(method: string, path: string, options: JsonRpcEndpointOptions = {}): void {
    this.jsonRpc.set(`${method.toUpperCase()} ${normalized(path)}`, options);
  }

  isJsonRpc(req: Pick<Request, 'method' | 'originalUrl'>): boolean {
    return this.jsonRpcRoute(req) !== undefined;
  }

  /** The error-code table of the JSON-RPC API at this path (undefined: the generic one). */
  jsonRpcCodes(req: Pick<Request, 'method' | 'originalUrl'>): JsonRpcCodeTable | undefined {
    return this.jsonRpcRoute(req)?.codes;
  }

  private jsonRpcRoute(req: Pick<Request, 'method' | 'originalUrl'>): JsonRpcEndpointOptions | undefined {
    return this.jsonRpc.get(`${req.method} ${normalized(pathOf(req))}`);
  }
}

/** Every path a handler serves: its controller's prefixes joined with its own paths. */
function routePaths(prefixes: unknown, paths: unknown): string[] {
  const list = (value: unknown) =>
    Array.isArray(value) ? (value as string[]) : [typeof value === 'string' ? value : ''];
  return list(prefixes).flatMap((prefix) => list(paths).map((path) => normalized(`/${prefix}/${path}`)));
}

/** One slash between segments, none at the end (but for `/` itself): as express matches paths. */
function normalized(path: string): string {
  const single = path.replace(/\/{2,}/g, '/');
  return single.length > 1 && single.endsWith('/') ? single.slice(0, -1) : single;
}

/** originalUrl, not path: inside mounted middleware express rewrites req.path. */
function pathOf(req: Pick<Request, 'originalUrl'>): string {
  return req.originalUrl.split('?')[0];
}
