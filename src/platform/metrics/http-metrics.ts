import { Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { RoutePolicies } from '../http/route-policies';
import { Metrics } from './metrics';

const ROUTE_LABEL = Symbol('switchboard.routeLabel');

type Transport = 'jsonrpc' | 'http';
type Labelled = Request & { [ROUTE_LABEL]?: { pattern: string; transport: Transport } };

/** The route pattern and transport a request served before Nest's router is counted under (Nest's own routes need none). */
export function labelRoute(req: Request, pattern: string, transport: Transport): void {
  (req as Labelled)[ROUTE_LABEL] = { pattern, transport };
}

/**
 * Counts every HTTP request when it ends, with its latency, by transport (jsonrpc on JSON-RPC
 * routes), method, status and route pattern - the one set with labelRoute, else the route Nest
 * matched, `unmatched` when none did - never by raw URL.
 */
@Injectable()
export class HttpMetrics {
  constructor(
    private readonly metrics: Metrics,
    private readonly routes: RoutePolicies,
  ) {}

  observe(req: Request, res: Response, seconds: number): void {
    this.metrics.httpRequests.observe(
      {
        transport: (req as Labelled)[ROUTE_LABEL]?.transport ?? (this.routes.isJsonRpc(req) ? 'jsonrpc' : 'http'),
        method: req.method,
        route: routePattern(req),
        status: res.headersSent ? String(res.statusCode) : 'aborted',
      },
      seconds,
    );
  }
}

/** Read at the end: express sets `req.route` when a handler matches. */
function routePattern(req: Labelled): string {
  const route = req[ROUTE_LABEL]?.pattern ?? (req.route as { path?: unknown } | undefined)?.path;
  return typeof route === 'string' ? route : 'unmatched';
}
