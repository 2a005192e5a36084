import { Injectable } from '@nestjs/common';
import type { Request } from 'express';

/**
 * Per-path HTTP policies that must be known before routing, registered by the modules that own
 * the paths:
 * - JSON-RPC routes: errors raised on them, even before routing (a body that is not JSON, a
 *   missing key), are answered as JSON-RPC error objects;
 * - routes that parse their own bodies (the A2A SDK's handlers): the global JSON parser leaves
 *   them alone.
 */
@Injectable()
export class RoutePolicies {
  private readonly jsonRpc: RegExp[] = [];
  private readonly ownBody: RegExp[] = [];

  registerJsonRpc(pattern: RegExp): void {
    this.jsonRpc.push(pattern);
  }

  registerOwnBodyParsing(pattern: RegExp): void {
    this.ownBody.push(pattern);
  }

  isJsonRpc(req: Pick<Request, 'method' | 'originalUrl'>): boolean {
    return req.method === 'POST' && this.jsonRpc.some((p) => p.test(pathOf(req)));
  }

  parsesOwnBody(req: Pick<Request, 'originalUrl'>): boolean {
    return this.ownBody.some((p) => p.test(pathOf(req)));
  }
}

/** originalUrl, not path: inside mounted middleware express rewrites req.path. */
function pathOf(req: Pick<Request, 'originalUrl'>): string {
  return req.originalUrl.split('?')[0];
}
