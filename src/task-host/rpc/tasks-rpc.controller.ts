import { Controller, HttpCode, Next, Post, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiProduces, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { NextFunction, Request, Response } from 'express';
import { DEFAULT_AGENT_ID } from '../../a2a/agent-profile';
import { AgentHost } from '../../a2a/hosting/agent-host';
import { CurrentPrincipal, RequireScopes } from '../../platform/auth/auth.decorators';
import type { Principal } from '../../platform/auth/principal';
import { DomainError } from '../../platform/errors/domain-error';
import { ErrorCode } from '../../platform/errors/error-code';
import {
  JsonRpcCodeTable,
  jsonRpcCodeFor,
  jsonRpcErrorResponse,
  JsonRpcId,
} from '../../platform/errors/json-rpc-error.mapping';
import { idOf, StreamedResult } from '../../platform/json-rpc/json-rpc';
import { startEventStream } from '../../platform/http/event-stream';
import { RateLimit } from '../../platform/rate-limit/rate-limit.decorator';
import type { TaskEvent } from '../engine/task-events';
import { taskRpcCodeFor } from './task-rpc-codes';
import { TaskRpcMethods } from './task-rpc.methods';

const KEEPALIVE_MS = 15_000;

/**
 * The task-tree JSON-RPC API at `POST /tasks`, and `POST /`, where `tasks.*` methods go to the
 * task host and A2A methods to the hub's default agent (as at /api/agents/orchestrator/v1).
 */
@ApiTags('tasks')
@ApiSecurity('api-key')
@ApiBearerAuth()
@Controller()
export class TasksRpcController {
  constructor(
    private readonly methods: TaskRpcMethods,
    private readonly host: AgentHost,
  ) {}

  @Post('tasks')
  @HttpCode(200)
  @RequireScopes('tasks')
  @RateLimit('tasks')
  @ApiProduces('application/json', 'text/event-stream')
  @ApiOkResponse({ description: 'JSON-RPC 2.0: tasks.create/get/update/delete/list/execute/cancel/tree/children/copy' })
  async tasks(@Req() req: Request, @Res() res: Response, @CurrentPrincipal() principal: Principal): Promise<void> {
    await this.answer(req, res, principal);
  }

  @Post()
  @HttpCode(200)
  @RateLimit('conversation')
  @ApiOkResponse({
    description: 'JSON-RPC 2.0: `tasks.*` (scope tasks) or A2A methods to the default agent (scope messages)',
  })
  async root(
    @Req() req: Request,
    @Res() res: Response,
    @Next() next: NextFunction,
    @CurrentPrincipal() principal: Principal,
  ): Promise<void> {
    const methods = (Array.isArray(req.body) ? req.body : [req.body]).map(
      (call: unknown) => (call as { method?: unknown } | null)?.method,
    );
    if (methods.length > 0 && methods.every((method) => typeof method === 'string' && method.startsWith('tasks.'))) {
      if (!principal.has('tasks')) return void res.status(403).json(forbidden(idOf(req.body), 'tasks', taskRpcCodeFor));
      return this.answer(req, res, principal);
    }
    if (!principal.has('messages'))
      return void res.status(403).json(forbidden(idOf(req.body), 'messages', jsonRpcCodeFor));
    this.host.dispatchTo(DEFAULT_AGENT_ID, '', '/v1', req, res, next);
  }

  private async answer(req: Request, res: Response, principal: Principal): Promise<void> {
    const reply = await this.methods.dispatcher.dispatch(req.body, { principal });
    if (reply === null) return void res.status(204).end();
    if (reply instanceof StreamedResult)
      return this.stream(req, res, idOf(req.body), reply as StreamedResult<TaskEvent>);
    res.status(200).json(reply);
  }

  /** SSE: the JSON-RPC envelope first, then `{event, data}` per event, keepalive comments between. */
  private async stream(req: Request, res: Response, id: JsonRpcId, reply: StreamedResult<TaskEvent>): Promise<void> {
    startEventStream(res);
    res.write(`data: ${JSON.stringify({ jsonrpc: '2.0', id, result: reply.result })}\n\n`);
    const keepalive = setInterval(() => res.write(': keepalive\n\n'), KEEPALIVE_MS);
    const iterator = reply.events[Symbol.asyncIterator]();
    const stop = () => void iterator.return?.();
    req.on('close', stop);
    try {
      for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
        if (res.writableEnded || res.destroyed) break;
        res.write(`event: ${next.value.event}\ndata: ${JSON.stringify(next.value)}\n\n`);
      }
    } finally {
      clearInterval(keepalive);
      req.off('close', stop);
      await iterator.return?.();
      if (!res.writableEnded) res.end();
    }
  }
}

function forbidden(id: JsonRpcId, scope: string, codes: JsonRpcCodeTable) {
  const error = new DomainError(ErrorCode.FORBIDDEN, `This API key lacks the "${scope}" scope`, { details: { scope } });
  return jsonRpcErrorResponse(error, id, codes);
}
