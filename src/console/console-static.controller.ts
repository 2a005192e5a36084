import { Controller, Get, Next, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { NextFunction, Request, Response } from 'express';
import { stat } from 'node:fs/promises';
import { resolve, sep } from 'node:path';
import { Public } from '../platform/auth/auth.decorators';
import { AppConfig } from '../platform/config/app-config';
import {
  CONSOLE_BASE,
  CONSOLE_SECURITY_HEADERS,
  consoleAssetFor,
  IMMUTABLE,
  REVALIDATE,
  wantsHtml,
} from './console-files';

/**
 * The operator console's built files (console/dist, or CONSOLE_DIST_DIR) at /console, with
 * index.html for the app's own routes, a strict Content-Security-Policy, immutable caching for
 * the hashed bundles and none for the page. Public: the page signs in itself. A browser asking
 * for `/` is sent to it; anything else at `/` is answered as before.
 */
@ApiExcludeController()
@Public()
@Controller()
export class ConsoleStaticController {
  private readonly dist: string;

  constructor(config: AppConfig) {
    this.dist = config.console.distDir;
  }

  @Get('/')
  root(@Req() req: Request, @Res() res: Response, @Next() next: NextFunction): void {
    if (!wantsHtml(req.headers.accept)) return next();
    res.redirect(302, `${CONSOLE_BASE}/`);
  }

  @Get([CONSOLE_BASE, `${CONSOLE_BASE}/*path`])
  async serve(@Req() req: Request, @Res() res: Response): Promise<void> {
    res.set(CONSOLE_SECURITY_HEADERS);
    const url = new URL(req.originalUrl, 'http://hub');
    const asset = consoleAssetFor(url.pathname, url.search);
    if (asset.kind === 'redirect') return res.redirect(302, asset.location);
    if (!(await isFile(resolve(this.dist, 'index.html')))) {
      res.status(503).type('text/plain').send('The console is not built: run npm run build:console\n');
      return;
    }
    if (asset.kind === 'not-found') return notFound(res);
    const file = asset.kind === 'index' ? resolve(this.dist, 'index.html') : resolve(this.dist, asset.relative);
    if (!file.startsWith(this.dist + sep) || !(await isFile(file))) return notFound(res);
    res.setHeader('Cache-Control', asset.kind === 'file' && asset.immutable ? IMMUTABLE : REVALIDATE);
    res.sendFile(file, { cacheControl: false, dotfiles: 'deny' }, (error) => {
      if (error && !res.headersSent) notFound(res);
    });
  }
}

function notFound(res: Response): void {
  res.status(404).type('text/plain').send('Not found\n');
}

async function isFile(path: string): Promise<boolean> {
  return stat(path).then(
    (found) => found.isFile(),
    () => false,
  );
}
