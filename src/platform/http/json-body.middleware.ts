import { Injectable, NestMiddleware } from '@nestjs/common';
import { json } from 'express';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { AppConfig } from '../config/app-config';
import { DomainError } from '../errors/domain-error';
import { ErrorCode } from '../errors/error-code';
import { toDomainError } from '../errors/to-domain-error';
import { RoutePolicies } from './route-policies';

/** Media types read as JSON bodies. */
export const JSON_TYPES = ['application/json', 'application/*+json'];

/**
 * Parses JSON bodies up to MAX_BODY_BYTES. Its errors go through the global filter like any
 * other: malformed JSON → 400 (JSON-RPC -32700 on JSON-RPC routes), too large → 413, a body
 * that is not JSON → 415. (Nest's own body parser is off; see bootstrap.)
 */
@Injectable()
export class JsonBodyMiddleware implements NestMiddleware {
  private readonly parse: RequestHandler;

  constructor(
    config: AppConfig,
    private readonly routes: RoutePolicies,
  ) {
    this.parse = json({ limit: config.http.maxBodyBytes, type: JSON_TYPES, strict: false });
  }

  async use(req: Request, res: Response, next: NextFunction): Promise<void> {
    if (this.routes.parsesOwnBody(req)) return next();
    if (hasBody(req) && !req.is(JSON_TYPES)) {
      throw new DomainError(ErrorCode.UNSUPPORTED_MEDIA_TYPE, 'Send the request body as application/json', {
        details: { content_type: req.headers['content-type'] ?? null },
      });
    }
    await new Promise<void>((resolve, reject) =>
      this.parse(req, res, (error?: unknown) => (error ? reject(toDomainError(error)) : resolve())),
    );
    next();
  }
}

function hasBody(req: Request): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}
