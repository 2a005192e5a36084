import { Injectable } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { RequestLog, requestIdOf } from '../logging/request-log';
import { HttpMetrics } from '../metrics/http-metrics';

/**
 * The first thing every HTTP request meets (bootstrap mounts it ahead of every route): it gets
 * its id (X-Request-Id on the answer, in error bodies and in its log line), and when it ends -
 * answered or abandoned by its client - its metrics and its log line.
 */
@Injectable()
export class HttpEdge {
  constructor(
    private readonly log: RequestLog,
    private readonly metrics: HttpMetrics,
  ) {}

  readonly middleware = (req: Request, res: Response, next: NextFunction): void => {
    req.id = requestIdOf(req);
    res.setHeader('X-Request-Id', req.id);
    const started = performance.now();
    const logged = this.log.wants(req);
    // 'close' follows 'finish' for every answer, and comes alone when the client goes away first.
    res.once('close', () => {
      const milliseconds = performance.now() - started;
      this.metrics.observe(req, res, milliseconds / 1000);
      if (logged) this.log.write(req, res, milliseconds);
    });
    next();
  };
}
