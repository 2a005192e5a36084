import { Controller, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiProduces, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { CurrentPrincipal, RequireScopes } from '../../platform/auth/auth.decorators';
import type { Principal } from '../../platform/auth/principal';
import { JsonRpcId } from '../../platform/errors/json-rpc-error.mapping';
import { emptyBodyError, idOf, StreamedResult } from '../../platform/json-rpc/json-rpc';
import { sentEmptyBody } from '../../platform/http/json-body.middleware';
import { startEventStream } from '../../platform/http/event-stream';
import { JsonRpcEndpoint } from '../../platform/http/json-rpc-endpoint.decorator';
import { RateLimit } from '../../platform/rate-limit/rate-limit.decorator';
import type { TaskEvent } from '../engine/task-events';
import { taskRpcCodeFor } from './task-rpc-codes';
import { TaskRpcMethods } from './task-rpc.methods';

const KEEPALIVE_MS = 15_000;

/**
 * The task-tree JSON-RPC API at `POST /tasks`, and at `POST /` for calls that are all `tasks.*`
 * (A2aHttpLane serves the other calls at `POST /`: they are the orchestrator's).
 */
@ApiTags('tasks')
@ApiSecurity('api-key')
@ApiBearerAuth()
@RequireScopes('tasks')
@RateLimit('tasks')
@Controller()
export class TasksRpcController {
  constructor(private readonly methods: TaskRpcMethods) {}

  @Post(['tasks', '/'])
  @JsonRpcEndpoint({ codes: taskRpcCodeFor })
  @HttpCode(200)
  @ApiProduces('application/json', 'text/event-stream')
  @ApiOkResponse({
    description:
      'JSON-RPC 2.0: tasks.create/get/update/delete/list/execute/cancel/tree/children/copy (at POST /, other methods go to the orchestrator)',
  })
  async tasks(@Req() req: Request, @Res() res: Response, @CurrentPrincipal() principal: Principal): Promise<void> {
    await this.answer(req, res, principal);
  }

  private async answer(req: Request, res: Response, principal: Principal): Promise<void> {
    if (sentEmptyBody(req)) return void res.status(200).json(emptyBodyError());
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
