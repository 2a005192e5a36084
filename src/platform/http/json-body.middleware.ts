import { Injectable, NestMiddleware } from '@nestjs/common';
import { json } from 'express';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { AppConfig } from '../config/app-config';
import { DomainError } from '../errors/domain-error';
import { ErrorCode } from '../errors/error-code';
import { toDomainError } from '../errors/to-domain-error';
import type { JsonLimits } from '../config/app-config';
import { scanJson, textProblem, urlTextProblem } from './json-limits';

/** Media types read as JSON bodies. */
export const JSON_TYPES = ['application/json', 'application/*+json'];

/** Set on a request whose body escapes a NUL or a surrogate (see scanJson). */
const SUSPECT_TEXT = Symbol('suspectText');
/** Set on a request that declared a JSON body and sent no bytes (body-parser reads it as `{}`). */
const EMPTY_BODY = Symbol('emptyBody');

/** Whether the request's JSON body was empty: `req.body` is then `{}`, though the client sent no JSON at all. */
export function sentEmptyBody(req: Request): boolean {
  return (req as { [EMPTY_BODY]?: boolean })[EMPTY_BODY] === true;
}

/**
 * The one reader of JSON request bodies, for every route (Nest's and each agent's A2A endpoints):
 * up to `maxBodyBytes` (else 413), within the JSON limits (scanJson, before parsing), and with no
 * text PostgreSQL cannot store (textProblem, after). Errors go to `next` as they come from
 * body-parser or as DomainErrors; toDomainError reads both.
 */
export function jsonBody(maxBodyBytes: number, limits: JsonLimits): RequestHandler {
  const parse = json({
    limit: maxBodyBytes,
    type: JSON_TYPES,
    strict: false,
    verify: (req, _res, bytes) => {
      if (bytes.length === 0) (req as { [EMPTY_BODY]?: boolean })[EMPTY_BODY] = true;
      const scan = scanJson(bytes, limits);
      if (scan.problem) throw scan.problem;
      if (scan.suspectText) (req as { [SUSPECT_TEXT]?: boolean })[SUSPECT_TEXT] = true;
    },
  });
  return (req, res, next) =>
    parse(req, res, (error?: unknown) => {
      if (error || !(req as { [SUSPECT_TEXT]?: boolean })[SUSPECT_TEXT]) return next(error);
      next(textProblem(req.body, 'body'));
    });
}

/**
 * Reads a request's JSON body (up to MAX_BODY_BYTES) into `req.body`; rejects with the domain
 * error to answer: malformed JSON → MALFORMED_REQUEST, too large → PAYLOAD_TOO_LARGE, a body that
 * is not JSON → UNSUPPORTED_MEDIA_TYPE. A body read before is left as it is.
 */
@Injectable()
export class JsonBodyParser {
  private readonly parser: RequestHandler;

  constructor(config: AppConfig) {
    this.parser = jsonBody(config.http.maxBodyBytes, config.http.json);
  }

  async parse(req: Request, res: Response): Promise<void> {
    if (hasBody(req) && !req.is(JSON_TYPES)) {
      throw new DomainError(ErrorCode.UNSUPPORTED_MEDIA_TYPE, 'Send the request body as application/json', {
        details: { content_type: req.headers['content-type'] ?? null },
      });
    }
    await new Promise<void>((resolve, reject) =>
      this.parser(req, res, (error?: unknown) => (error ? reject(toDomainError(error)) : resolve())),
    );
  }
}

/**
 * Refuses a URL holding a NUL (urlTextProblem), then parses JSON bodies (JsonBodyParser) for
 * Nest's routes. Its errors go through the global filter like any other: malformed JSON → 400
 * (JSON-RPC -32700 on JSON-RPC routes), too large → 413, a body that is not JSON → 415. (Nest's
 * own body parser is off; see bootstrap.)
 */
@Injectable()
export class JsonBodyMiddleware implements NestMiddleware {
  constructor(private readonly body: JsonBodyParser) {}

  async use(req: Request, res: Response, next: NextFunction): Promise<void> {
    const problem = urlTextProblem(req.originalUrl);
    if (problem) throw problem;
    await this.body.parse(req, res);
    next();
  }
}

function hasBody(req: Request): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}
