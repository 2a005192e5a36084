import {
  A2ARequestHandler,
  AgentExecutor,
  DefaultExecutionEventBusManager,
  DefaultRequestHandler,
  ServerCallContext,
  ServerCallContextBuilder,
  ServerCallContextBuilderOptions,
  STATE_HEADERS_KEY,
  User,
} from '@a2a-js/sdk/server';
import { jsonRpcHandler, restHandler, UserBuilder } from '@a2a-js/sdk/server/express';
import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { Principal } from '../../platform/auth/principal';
import { requestPrincipal } from '../../platform/auth/principal-holder';
import { AppConfig } from '../../platform/config/app-config';
import { SecretBox } from '../../platform/crypto/secret-box';
import { DomainError } from '../../platform/errors/domain-error';
import { ErrorCode } from '../../platform/errors/error-code';
import { EventBus } from '../../platform/events/event-bus';
import { KeyValueStore } from '../../platform/kv/key-value-store';
import { Metrics } from '../../platform/metrics/metrics';
import { OutboundHttp } from '../../platform/net/outbound-http';
import { AgentProfile, DEFAULT_AGENT_ID } from '../agent-profile';
import { AgentCardFactory } from '../card/agent-card.factory';
import { HubEndpointsResolver } from '../card/hub-endpoints';
import { jsonRpcPreflight, restPreflight } from '../http/protocol-preflight';
import { PgPushConfigStore } from '../push/pg-push-config.store';
import { PushConfigRepository } from '../push/push-config.repository';
import { PushSubscriptions } from '../push/push-subscriptions';
import { RetryingPushSender } from '../push/retrying-push.sender';
import { TaskWebhooks } from '../push/task-webhooks';
import { A2aTaskRepository } from '../store/a2a-task.repository';
import { KvTaskStore } from '../store/kv-task.store';
import { A2aUser, CallNotes, ownerOf } from './a2a-user';
import { GuardedRequestHandler } from './guarded-request-handler';

/** Key in ServerCallContext.state holding the id of the agent a call is for. */
export const AGENT_ID_STATE_KEY = 'switchboard.agentId';

export interface AgentDefinition {
  profile: AgentProfile;
  executor: AgentExecutor;
  /** Wraps the agent's request handler (after the hub's own guard), e.g. to turn results into errors. */
  wrapHandler?: (handler: A2ARequestHandler) => A2ARequestHandler;
}

/** One agent the hub serves: its SDK request handler, its HTTP routes, its stores. */
export class HostedAgent {
  constructor(
    readonly profile: AgentProfile,
    readonly handler: A2ARequestHandler,
    /** Its HTTP endpoints, each behind its preflight: JSON-RPC (`/v1`) and HTTP+JSON (`/json/...`). */
    readonly http: { jsonRpc: RequestHandler; rest: RequestHandler },
    readonly pushSender: RetryingPushSender,
    /** Kept for cancels relayed from other replicas, which bypass the SDK handler. */
    readonly executor: AgentExecutor,
  ) {}

  get id(): string {
    return this.profile.id;
  }
}

/**
 * The agents the hub serves over A2A. Hosting is a map write: agents come and go at runtime
 * without a restart. Each gets its own SDK DefaultRequestHandler (card, executor, task store,
 * push store and sender) behind the SDK's JSON-RPC and HTTP+JSON express handlers, with v0.3
 * compatibility on: requests without an A2A-Version header are served as v0.3.
 */
@Injectable()
export class AgentHost implements OnModuleInit {
  private readonly logger = new Logger('AgentHost');
  private readonly agents = new Map<string, HostedAgent>();
  /** One per agent id, kept across re-hosting so running tasks keep their streams and cancels. */
  private readonly buses = new Map<string, DefaultExecutionEventBusManager>();
  private changes = 0;

  /** The caller the API-key guard verified, with the base URL it reached the hub at. */
  private readonly principalUser: UserBuilder = async (req: Request) => {
    const principal = requestPrincipal(req);
    if (!principal) throw new Error('A2A route reached without an authenticated caller');
    return new A2aUser(principal, notesOf(req), this.endpoints.httpBaseOf(req));
  };

  constructor(
    private readonly config: AppConfig,
    private readonly cards: AgentCardFactory,
    private readonly endpoints: HubEndpointsResolver,
    private readonly kv: KeyValueStore,
    private readonly tasks: A2aTaskRepository,
    private readonly pushConfigs: PushConfigRepository,
    private readonly secrets: SecretBox,
    private readonly outbound: OutboundHttp,
    private readonly metrics: Metrics,
    private readonly bus: EventBus,
    private readonly subscriptions: PushSubscriptions,
    private readonly webhooks: TaskWebhooks,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.bus.subscribe(CANCEL_CHANNEL, (message) => this.cancelHere(message as CancelRequest));
  }

  host(definition: AgentDefinition): HostedAgent {
    const { profile, executor } = definition;
    const taskStore = new KvTaskStore(profile.id, this.kv, this.tasks, this.config.a2a.taskTtlSeconds * 1000);
    const pushStore = new PgPushConfigStore(profile.id, this.webhooks, this.secrets, this.outbound);
    const pushSender = new RetryingPushSender(
      profile.id,
      pushStore,
      this.pushConfigs,
      this.outbound,
      this.subscriptions,
      this.metrics,
    );
    const card = this.cards.build(profile, this.endpoints.configured());
    const guarded = new GuardedRequestHandler(
      profile.id,
      new DefaultRequestHandler(
        card,
        taskStore,
        startingExecutionsOf(executor, taskStore),
        this.eventBuses(profile.id),
        pushStore,
        pushSender,
      ),
      (taskId, context) => this.relayCancel(profile.id, taskId, context),
    );
    const handler = definition.wrapHandler ? definition.wrapHandler(guarded) : guarded;
    const options = {
      requestHandler: handler,
      userBuilder: this.principalUser,
      contextBuilder: contextFor(() => profile.id),
      legacyCompat: { enabled: true },
    };
    const http = {
      jsonRpc: chain(
        jsonRpcPreflight(this.config.http.maxBodyBytes),
        ...(definition.wrapHandler ? [jsonRpcErrorNotes] : []),
        jsonRpcHandler(options),
      ),
      rest: chain(restPreflight(this.config.http.maxBodyBytes), restHandler(options)),
    };
    const hosted = new HostedAgent(profile, handler, http, pushSender, executor);
    this.agents.set(profile.id, hosted);
    this.changes++;
    return hosted;
  }

  /**
   * Forgets an agent's stored tasks and webhooks (Postgres) once it is removed, so an agent
   * registered later under the same id starts clean. Live records expire with their TTL.
   */
  async purge(id: string): Promise<void> {
    await this.tasks.removeAgent(id);
    await this.pushConfigs.removeAgent(id);
  }

  unhost(id: string): boolean {
    this.buses.delete(id);
    this.changes++;
    return this.agents.delete(id);
  }

  /** Changes whenever an agent is hosted, re-hosted or removed: a cache key for views of the set. */
  get revision(): number {
    return this.changes;
  }

  private eventBuses(id: string): DefaultExecutionEventBusManager {
    let buses = this.buses.get(id);
    if (!buses) this.buses.set(id, (buses = new DefaultExecutionEventBusManager()));
    return buses;
  }

  /**
   * A cancel for a task this replica does not run goes to every replica: the one running it
   * cancels its executor (for a remote agent: tasks/cancel on the agent), while the SDK here
   * records the cancellation.
   */
  private async relayCancel(agentId: string, taskId: string, context: ServerCallContext): Promise<void> {
    if (this.isRunningHere(agentId, taskId, context)) return;
    const request: CancelRequest = { agentId, taskId, owner: ownerOf(context) };
    await this.bus
      .publish(CANCEL_CHANNEL, request)
      .catch((error: Error) => this.logger.warn(`Could not relay the cancel of task ${taskId}: ${error.message}`));
  }

  private async cancelHere({ agentId, taskId, owner }: CancelRequest): Promise<void> {
    const user = new A2aUser(new Principal('cancel-relay', 'cancel-relay', owner, ['messages']));
    const bus = this.buses.get(agentId)?.getByTaskId(taskId, callContextFor(agentId, user));
    const executor = this.agents.get(agentId)?.executor;
    if (bus && executor) await executor.cancelTask(taskId, bus);
  }

  /** Whether this replica is running (has an open event bus for) the task, as seen by `context`'s caller. */
  isRunningHere(agentId: string, taskId: string, context: ServerCallContext): boolean {
    return this.buses.get(agentId)?.getByTaskId(taskId, context) !== undefined;
  }

  get(id: string): HostedAgent | undefined {
    return this.agents.get(id);
  }

  require(id: string): HostedAgent {
    const agent = this.agents.get(id);
    if (!agent) throw DomainError.notFound('Agent', id);
    return agent;
  }

  /** The default agent first, then by name. */
  list(): HostedAgent[] {
    return [...this.agents.values()].sort((a, b) =>
      a.id === DEFAULT_AGENT_ID ? -1 : b.id === DEFAULT_AGENT_ID ? 1 : a.profile.name.localeCompare(b.profile.name),
    );
  }

  /**
   * Hands an HTTP request to an agent's SDK handlers: `url` is the path within the agent (`/v1`,
   * `/json/...`), `baseUrl` where the client sent it (/api/agents/{id}, or another route serving
   * an agent's endpoint). Unknown agents are NOT_FOUND; a path the handlers do not serve too.
   */
  dispatchTo(id: string, baseUrl: string, url: string, req: Request, res: Response, next: NextFunction): void {
    const agent = this.require(id);
    const query = url.indexOf('?');
    const path = query === -1 ? url : url.slice(0, query);
    const mount = ENDPOINTS.exec(path)?.[1]?.toLowerCase();
    const notFound = () => next(new DomainError(ErrorCode.NOT_FOUND, `Cannot ${req.method} ${req.originalUrl}`));
    if (!mount) return notFound();
    // As express mounts a router: the handler sees the path below its mount point.
    req.baseUrl = `${baseUrl}${path.slice(0, mount.length)}`;
    req.url = `${path.slice(mount.length) || '/'}${query === -1 ? '' : url.slice(query)}`;
    const endpoint = mount === '/v1' ? agent.http.jsonRpc : agent.http.rest;
    endpoint(req, res, (error?: unknown) => {
      if (error) return next(error);
      if (!res.headersSent) notFound();
    });
  }

  /** Resolves when every push notification queued so far has been sent or given up on, or at the deadline. */
  async drainPushNotifications(deadlineMs = Infinity): Promise<void> {
    const drained = Promise.all([...this.agents.values()].map((a) => a.pushSender.drain()));
    if (!Number.isFinite(deadlineMs)) return void (await drained);
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([drained, new Promise((resolve) => (timer = setTimeout(resolve, deadlineMs)))]);
    clearTimeout(timer);
  }
}

/** The executor, telling the task store first that an execution starts here (see KvTaskStore.beginExecution). */
function startingExecutionsOf(executor: AgentExecutor, store: KvTaskStore): AgentExecutor {
  return {
    execute: (request, bus) => {
      store.beginExecution(request);
      return executor.execute(request, bus);
    },
    cancelTask: (taskId, bus) => executor.cancelTask(taskId, bus),
  };
}

const NOTES = Symbol('switchboard.callNotes');

/** The agent-relative paths of its endpoints: `/v1` (JSON-RPC) and `/json[/...]` (HTTP+JSON). */
const ENDPOINTS = /^(\/v1|\/json)(?:\/|$)/i;

/** Runs express handlers one after another, as a router runs a route's; an error skips to `next`. */
function chain(...handlers: RequestHandler[]): RequestHandler {
  return (req, res, next) => {
    let index = 0;
    const step = (error?: unknown): void => {
      if (error !== undefined && error !== null) return next(error);
      const handler = handlers[index++];
      if (!handler) return next();
      try {
        handler(req, res, step);
      } catch (thrown) {
        next(thrown);
      }
    };
    step();
  };
}

/** Where cancels of tasks running on another replica travel. */
const CANCEL_CHANNEL = 'a2a:cancel';

interface CancelRequest {
  agentId: string;
  taskId: string;
  owner: string;
}

function notesOf(req: Request): CallNotes {
  const holder = req as Request & { [NOTES]?: CallNotes };
  return (holder[NOTES] ??= {});
}

/** Puts the code and data a handler noted (see CallNotes) into the JSON-RPC error the SDK writes. */
function jsonRpcErrorNotes(req: Request, res: Response, next: NextFunction): void {
  const notes = notesOf(req);
  const json = res.json.bind(res);
  res.json = (body: unknown) => {
    const error = notes.jsonRpcError;
    const envelope = body as { error?: Record<string, unknown> } | undefined;
    if (error && envelope?.error) return json({ ...envelope, error: { ...envelope.error, ...error } });
    return json(body);
  };
  next();
}

/** A call context for an in-process call (the orchestrator's, the REST conversation API's): v1.0, no headers. */
export function callContextFor(agentId: string, user: User | undefined): ServerCallContext {
  return callContext(agentId, { user, requestedVersion: '1.0', headers: {}, extensions: undefined });
}

/** The SDK's call context for a call to agent `agentId`, with the agent's id in its state. */
function callContext(agentId: string, options: ServerCallContextBuilderOptions): ServerCallContext {
  return new ServerCallContext({
    user: options.user,
    requestedExtensions: options.extensions,
    requestedVersion: options.requestedVersion,
    state: new Map<string, unknown>([
      [STATE_HEADERS_KEY, options.headers],
      [AGENT_ID_STATE_KEY, agentId],
    ]),
  });
}

/**
 * Builds the SDK's call context with the id of the agent the call is for in its state. The
 * tenant is not kept: it only routes gRPC calls, and keeping it would scope tasks by transport.
 */
export function contextFor(agentId: (options: ServerCallContextBuilderOptions) => string): ServerCallContextBuilder {
  return (options) => callContext(agentId(options), options);
}
