import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { STATUS_CODES } from 'node:http';
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer } from 'ws';
import type { Principal } from '../../platform/auth/principal';
import { PresentedCredentials } from '../../platform/auth/presented-credentials';
import { DomainError } from '../../platform/errors/domain-error';
import { httpStatusFor } from '../../platform/errors/http-error.mapping';
import { toDomainError } from '../../platform/errors/to-domain-error';
import { ErrorCode } from '../../platform/errors/error-code';
import { AppConfig } from '../../platform/config/app-config';
import { parseLimitedJson } from '../../platform/http/json-limits';
import { RateLimiter } from '../../platform/rate-limit/rate-limiter';
import { TaskEventStreams } from '../engine/task-event-streams';
import { TaskTreeService } from '../task-tree.service';
import { taskRpcCodeFor } from './task-rpc-codes';

export const TASK_EVENTS_WS_PATH = '/tasks/ws';
const MAX_MESSAGE_BYTES = 64 * 1024;
const MAX_SUBSCRIPTIONS = 100;
const PING_MS = 30_000;

type ClientMessage = { action?: unknown; root_task_id?: unknown; task_id?: unknown };

/**
 * Task-tree events over WebSocket at /tasks/ws: the same `{event, data}` messages as the SSE
 * stream. Authenticate the upgrade with `X-Api-Key` or `Authorization: Bearer` (scope `tasks`), or
 * from the console's own page with its session cookie,
 * then send `{"action": "subscribe", "root_task_id": "…"}` (any task of the tree will do) and
 * `{"action": "unsubscribe", …}`; `?root_task_id=` subscribes at connect. Every execution of the
 * tree is reported until the subscription ends. Errors come as `{"event": "error", "data": {code,
 * message}}` with the task API's codes.
 */
@Injectable()
export class TaskEventsGateway implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('TaskEventsWebSocket');
  private readonly sockets = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });
  private ping?: NodeJS.Timeout;

  constructor(
    private readonly adapter: HttpAdapterHost,
    private readonly credentials: PresentedCredentials,
    private readonly trees: TaskTreeService,
    private readonly streams: TaskEventStreams,
    private readonly limiter: RateLimiter,
    private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    const server = this.adapter.httpAdapter.getHttpServer() as Server;
    server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      const path = pathOf(req.url);
      if (path === TASK_EVENTS_WS_PATH) return void this.upgrade(req, socket, head);
      // Nothing else takes upgrades: answer, rather than leave the socket open (and the server unable to close).
      if (server.listenerCount('upgrade') === 1) {
        const error = path === undefined ? 'The request target is not a URL' : `No WebSocket endpoint at ${path}`;
        refuse(socket, new DomainError(path === undefined ? ErrorCode.INVALID_REQUEST : ErrorCode.NOT_FOUND, error));
      }
    });
    this.ping = setInterval(() => {
      for (const client of this.sockets.clients) client.ping();
    }, PING_MS);
    this.ping.unref();
  }

  beforeApplicationShutdown(): void {
    clearInterval(this.ping);
    for (const client of this.sockets.clients) client.close(1001, 'server shutting down');
  }

  private async upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    let principal: Principal;
    try {
      principal = await this.credentials.authorize(req, ['tasks']);
      // A connection counts as a task-tree call, as opening the SSE stream (tasks.watch) does.
      await this.limiter.consume('tasks', principal.keyId);
    } catch (error) {
      return refuse(socket, error);
    }
    this.sockets.handleUpgrade(req, socket, head, (client) => this.serve(client, principal, req));
  }

  private serve(client: WebSocket, principal: Principal, req: IncomingMessage): void {
    const subscriptions = new Map<string, () => void>();
    const send = (message: unknown) => {
      if (client.readyState === WebSocket.OPEN) client.send(JSON.stringify(message));
    };
    const fail = (error: unknown) => {
      const domain = toDomainError(error);
      send({ event: 'error', data: { code: taskRpcCodeFor(domain.code), message: domain.message } });
    };
    const subscribe = async (taskId: unknown) => {
      if (typeof taskId !== 'string' || taskId === '')
        throw DomainError.validation([{ field: 'root_task_id', reason: 'must be a task id' }]);
      await this.limiter.consume('tasks', principal.keyId);
      const task = await this.trees.get(principal, taskId);
      if (subscriptions.has(task.rootId)) return;
      if (subscriptions.size >= MAX_SUBSCRIPTIONS)
        throw new Error(`At most ${MAX_SUBSCRIPTIONS} subscriptions per connection`);
      const events = (await this.streams.open(task.rootId, undefined, true))[Symbol.asyncIterator]();
      subscriptions.set(task.rootId, () => void events.return?.());
      send({ event: 'subscribed', data: { root_task_id: task.rootId } });
      void (async () => {
        for (let next = await events.next(); !next.done; next = await events.next()) send(next.value);
      })();
    };
    client.on('message', (raw) => {
      let message: ClientMessage;
      try {
        const text = Array.isArray(raw)
          ? Buffer.concat(raw).toString('utf8')
          : Buffer.isBuffer(raw)
            ? raw.toString('utf8')
            : Buffer.from(new Uint8Array(raw)).toString('utf8');
        message = parseLimitedJson(text, this.config.http.json, 'message') as ClientMessage;
      } catch (error) {
        const malformed = toDomainError(error).code === ErrorCode.MALFORMED_REQUEST;
        return malformed
          ? send({ event: 'error', data: { code: -32700, message: 'Messages must be JSON' } })
          : fail(error);
      }
      if (!message || typeof message !== 'object') message = {};
      const taskId = message.root_task_id ?? message.task_id;
      if (message.action === 'subscribe') return void subscribe(taskId).catch(fail);
      if (message.action === 'unsubscribe' && typeof taskId === 'string') {
        subscriptions.get(taskId)?.();
        subscriptions.delete(taskId);
        return send({ event: 'unsubscribed', data: { root_task_id: taskId } });
      }
      send({
        event: 'error',
        data: { code: -32600, message: 'Send {"action": "subscribe" | "unsubscribe", "root_task_id": …}' },
      });
    });
    client.on('close', () => {
      for (const stop of subscriptions.values()) stop();
      subscriptions.clear();
    });
    client.on('error', (error) => this.logger.debug(`WebSocket error: ${error.message}`));
    const initial = new URL(req.url ?? '/', 'http://hub').searchParams.get('root_task_id');
    if (initial) void subscribe(initial).catch(fail);
  }
}

/** Answers an upgrade request with the error's status and JSON body, and closes the connection. */
function refuse(socket: Duplex, error: unknown): void {
  const domain = toDomainError(error);
  const status = httpStatusFor(domain.code);
  const body = JSON.stringify({ statusCode: status, code: domain.code, message: domain.message });
  const retry = domain.retryAfterSeconds === undefined ? '' : `Retry-After: ${domain.retryAfterSeconds}\r\n`;
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}\r\nContent-Type: application/json\r\n${retry}` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/**
 * The path of an upgrade request's target; undefined for a target that is not a URL (`//[`),
 * which names no route (new URL would throw, and an exception in an 'upgrade' listener ends the process).
 */
function pathOf(target = '/'): string | undefined {
  try {
    return new URL(target, 'http://hub').pathname;
  } catch {
    return undefined;
  }
}
