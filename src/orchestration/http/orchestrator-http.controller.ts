import { Body, Controller, HttpCode, Options, Post, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiProduces, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { HubEndpointsResolver } from '../../a2a/card/hub-endpoints';
import { CurrentPrincipal, RequireScopes } from '../../platform/auth/auth.decorators';
import type { Principal } from '../../platform/auth/principal';
import { acceptsEventStream, startEventStream } from '../../platform/http/event-stream';
import { RateLimit } from '../../platform/rate-limit/rate-limit.decorator';
import { ConversationService } from '../conversation.service';
import { ConversationReplyDto, ConversationRequestDto } from './conversation.dto';

/**
 * The orchestrator as the REST generation of the Home Assistant integration speaks to it:
 * `/api/conversation`. (Its JSON-RPC at `POST /a2a/lucia-orchestrator`, the path existing
 * deployments use, is served by A2aHttpLane with every other A2A endpoint.)
 */
@ApiTags('orchestration')
@ApiSecurity('api-key')
@ApiBearerAuth()
@RequireScopes('messages')
@RateLimit('conversation')
@Controller()
export class OrchestratorHttpController {
  constructor(
    private readonly conversations: ConversationService,
    private readonly endpoints: HubEndpointsResolver,
  ) {}

  /** Home Assistant probes its key with OPTIONS: a bad key is a 401, a good one a 204. */
  @Options('api/conversation')
  @HttpCode(204)
  probe(@Res({ passthrough: true }) res: Response): void {
    res.setHeader('Allow', 'OPTIONS, POST');
  }

  @Post('api/conversation')
  @HttpCode(200)
  @ApiProduces('application/json', 'text/event-stream')
  @ApiOkResponse({
    type: ConversationReplyDto,
    description:
      'The reply; with `Accept: text/event-stream`, SSE events `metadata`, `delta` ({text}), `done` ' +
      '({text, conversationId, needsInput}) or `error`, each with its type also in the data',
  })
  async converse(
    @Body() body: ConversationRequestDto,
    @CurrentPrincipal() principal: Principal,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<ConversationReplyDto | void> {
    const conversationId = this.conversations.conversationIdFor(body.context?.conversationId);
    const httpBase = this.endpoints.httpBaseOf(req);
    if (!acceptsEventStream(req)) return this.conversations.reply(principal, body.text, conversationId, httpBase);

    startEventStream(res);
    const send = (event: string, data: Record<string, unknown>) =>
      res.write(`event: ${event}\ndata: ${JSON.stringify({ type: event, ...data })}\n\n`);
    send('metadata', { conversationId });
    const reply = await this.conversations.reply(principal, body.text, conversationId, httpBase);
    if (reply.type === 'error') {
      send('error', { error: reply.text, message: reply.text, conversationId, code: reply.error?.errorCode });
    } else {
      send('delta', { text: reply.text });
      send('done', { text: reply.text, conversationId, needsInput: reply.needsInput });
    }
    res.end();
  }
}
