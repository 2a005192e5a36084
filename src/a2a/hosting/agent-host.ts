import type { ServerCallContext } from '@a2a-js/sdk/server';
import { Injectable } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { DomainError } from '../../platform/errors/domain-error';
import { ErrorCode } from '../../platform/errors/error-code';
import { DEFAULT_AGENT_ID } from '../agent-profile';
import { AgentPush } from '../push/agent-push';
import { PushConfigRepository } from '../push/push-config.repository';
import { A2aTaskRepository } from '../store/a2a-task.repository';
import { ExecutionBuses } from './execution-buses';
import { AgentDefinition, HostedAgent } from './hosted-agent';
import { HostedAgentFactory } from './hosted-agent.factory';

export { AgentDefinition, HostedAgent } from './hosted-agent';

/**
 * The agents the hub serves over A2A, by id. Hosting is a map write: agents come and go at
 * runtime without a restart (HostedAgentFactory wires each to the SDK).
 */
@Injectable()
export class AgentHost {
  private readonly agents = new Map<string, HostedAgent>();
  private changes = 0;

  constructor(
    private readonly factory: HostedAgentFactory,
    private readonly running: ExecutionBuses,
    private readonly push: AgentPush,
    private readonly tasks: A2aTaskRepository,
    private readonly pushConfigs: PushConfigRepository,
  ) {}

  host(definition: AgentDefinition): HostedAgent {
    const hosted = this.factory.build(definition);
    this.agents.set(hosted.id, hosted);
    this.changes++;
    return hosted;
  }

  unhost(id: string): boolean {
    this.factory.forget(id);
    this.changes++;
    return this.agents.delete(id);
  }

  /**
   * Forgets an agent's stored tasks and webhooks (Postgres) once it is removed, so an agent
   * registered later under the same id starts clean. Live records expire with their TTL.
   */
  async purge(id: string): Promise<void> {
    await this.tasks.removeAgent(id);
    await this.pushConfigs.removeAgent(id);
  }

  /** Changes whenever an agent is hosted, re-hosted or removed: a cache key for views of the set. */
  get revision(): number {
    return this.changes;
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

  /** Whether this replica is running (has an open event bus for) the task, as seen by `context`'s caller. */
  isRunningHere(agentId: string, taskId: string, context: ServerCallContext): boolean {
    return this.running.isRunningHere(agentId, taskId, context);
  }

  /**
   * Hands an HTTP request to an agent's endpoints (its express Router): `url` is the path within
   * the agent (`/v1`, `/json/...`), `baseUrl` where the client sent it (/api/agents/{id}, or another
   * route serving an agent's endpoint). Unknown agents are NOT_FOUND; a path it does not serve too.
   */
  serve(id: string, baseUrl: string, url: string, req: Request, res: Response, next: NextFunction): void {
    const agent = this.require(id);
    req.baseUrl = baseUrl;
    req.url = url;
    agent.router(req, res, (error?: unknown) => {
      if (error && error !== 'router') return next(error);
      if (!res.headersSent) next(new DomainError(ErrorCode.NOT_FOUND, `Cannot ${req.method} ${req.originalUrl}`));
    });
  }

  /** Resolves when every push notification queued so far has been sent or given up on, or at the deadline. */
  drainPushNotifications(deadlineMs = Infinity): Promise<void> {
    return this.push.drain(deadlineMs);
  }
}
