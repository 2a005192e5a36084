import { Body, Controller, Delete, Get, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Public } from '../platform/auth/auth.decorators';
import { clearSessionCookie, setSessionCookie } from '../platform/auth/console-cookie';
import { ConsoleSessions } from '../platform/auth/console-sessions';
import { PresentedCredentials } from '../platform/auth/presented-credentials';
import { RateLimit } from '../platform/rate-limit/rate-limit.decorator';
import { ConsoleSessionResponse, SignInDto } from './dto/console-session.dto';

/**
 * The console's sign-in: an API key exchanged for an HttpOnly, SameSite=Strict `sb_console`
 * cookie and a CSRF token. The routes read the session themselves (PresentedCredentials), so they
 * are public to the API-key guard; signing in counts against the `registry` limit per address.
 */
@ApiTags('console')
@Public()
@Controller('api/console/session')
export class ConsoleSessionController {
  constructor(
    private readonly sessions: ConsoleSessions,
    private readonly credentials: PresentedCredentials,
  ) {}

  @Post()
  @HttpCode(201)
  @RateLimit('registry')
  @ApiCreatedResponse({ type: ConsoleSessionResponse, description: 'Signed in; the session cookie is set' })
  async signIn(
    @Body() body: SignInDto,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<ConsoleSessionResponse> {
    const session = await this.sessions.create(body.api_key);
    setSessionCookie(res, session.id, this.sessions.ttlSeconds, this.credentials.overHttps(req));
    return ConsoleSessionResponse.from(session);
  }

  @Get()
  @ApiOkResponse({ type: ConsoleSessionResponse, description: 'The signed-in session (401 when there is none)' })
  async current(@Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<ConsoleSessionResponse> {
    return ConsoleSessionResponse.from(await this.credentials.session(req, res));
  }

  @Delete()
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'Signed out (needs X-CSRF-Token); the cookie is cleared' })
  async signOut(@Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<void> {
    await this.sessions.end(await this.credentials.session(req, res));
    clearSessionCookie(res, this.credentials.overHttps(req));
  }
}
