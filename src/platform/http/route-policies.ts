import { Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { DomainError } from '../errors/domain-error';
import type { JsonRpcCodeTable } from '../errors/json-rpc-error.mapping';

/** Writes an error in an API's own shape (e.g. the agents.json envelope). */
export type ErrorWriter = (error: DomainError, res: Response) => void;

/**
 * Per-path HTTP policies that must be known before routing, registered by the modules that own
 * the paths:
 * - JSON-RPC routes: errors raised on them, even before routing (a body that is not JSON, a
 *   missing key), are answered as JSON-RPC error objects;
 * - APIs with their own error shape: their errors, even before routing, are written by them.
 * (The A2A routes are served ahead of Nest by A2aHttpLane, which knows its own.)
 */
@Injectable()
export class RoutePolicies {
  private readonly jsonRpc: { pattern: RegExp; codes?: JsonRpcCodeTable }[] = [];
  private readonly errorWriters: { matches: (req: Pick<Request, 'originalUrl'>) => boolean; write: ErrorWriter }[] = [];

  registerErrorWriter(matches: (req: Pick<Request, 'originalUrl'>) => boolean, write: ErrorWriter): void {
    this.errorWriters.push({ matches, write });
  }

  errorWriterFor(req: Pick<Request, 'originalUrl'>): ErrorWriter | undefined {
    return this.errorWriters.find((writer) => writer.matches(req))?.write;
  }

  /** `codes`: the API's own error-code table, if it is not the hub's generic one. */
  registerJsonRpc(pattern: RegExp, codes?: JsonRpcCodeTable): void {
    this.jsonRpc.push({ pattern, codes });
  }

  isJsonRpc(req: Pick<Request, 'method' | 'originalUrl'>): boolean {
    return this.jsonRpcRoute(req) !== undefined;
  }

  /** The error-code table of the JSON-RPC API at this path (undefined: the generic one). */
  jsonRpcCodes(req: Pick<Request, 'method' | 'originalUrl'>): JsonRpcCodeTable | undefined {
    return this.jsonRpcRoute(req)?.codes;
  }

  private jsonRpcRoute(req: Pick<Request, 'method' | 'originalUrl'>) {
    if (req.method !== 'POST') return undefined;
    const path = pathOf(req);
    return this.jsonRpc.find((route) => route.pattern.test(path));
  }
}

/** originalUrl, not path: inside mounted middleware express rewrites req.path. */
function pathOf(req: Pick<Request, 'originalUrl'>): string {
  return req.originalUrl.split('?')[0];
}
