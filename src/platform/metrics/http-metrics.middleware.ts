import { Injectable, NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { RoutePolicies } from '../http/route-policies';
import { Metrics } from './metrics';

/**
 * Times every HTTP request to the end of its answer (or its client going away) and counts it by
 * route pattern - the route Nest matched, `unmatched` when none did - never by raw URL.
 */
@Injectable()
export class HttpMetricsMiddleware implements NestMiddleware {
  constructor(
    private readonly metrics: Metrics,
    private readonly routes: RoutePolicies,
  ) {}

  use(req: Request, res: Response, next: NextFunction): void {
    const stop = this.metrics.httpRequests.startTimer();
    // The route is read at the end: express sets it when a handler matches.
    const routePattern = () => {
      const route = (req.route as { path?: unknown } | undefined)?.path;
      return typeof route === 'string' ? route : 'unmatched';
    };
    let done = false;
    const end = () => {
      if (done) return;
      done = true;
      stop({
        transport: this.routes.isJsonRpc(req) ? 'jsonrpc' : 'http',
        method: req.method,
        route: routePattern(),
        status: res.headersSent ? String(res.statusCode) : 'aborted',
      });
    };
    res.once('finish', end);
    res.once('close', end);
    next();
  }
}
