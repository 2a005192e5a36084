import { Injectable } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { HttpErrorResponder } from '../../platform/errors/http-error.responder';
import { JsonBodyParser } from '../../platform/http/json-body.middleware';
import { urlTextProblem } from '../../platform/http/json-limits';
import { labelRoute } from '../../platform/metrics/http-metrics';
import { A2aGate } from '../a2a-gate';
import { AgentHost } from '../hosting/agent-host';
import { AgentRoute, agentRouteOf, routeOfRoot, SHARED_ROOT } from './a2a-routes';

/**
 * Serves the A2A endpoints of every hosted agent - JSON-RPC at /api/agents/{id}/v1, HTTP+JSON
 * under /api/agents/{id}/json, the orchestrator's JSON-RPC at /a2a/lucia-orchestrator and POST /
 * (which it shares with the task-tree API) - ahead of Nest's router (bootstrap mounts it). They
 * carry every message of every conversation, so they skip Nest's per-request pipeline (matching
 * against every route, guards and metadata looked up by reflection, interceptors, pipes): the
 * gate (A2aGate) decides who may talk to the agent, then the request goes to the agent's own
 * endpoints (AgentHost.serve). Errors are written as on any other route - JSON-RPC error objects
 * on JSON-RPC endpoints. bench/a2a-send measures what this saves.
 */
@Injectable()
export class A2aHttpLane {
  constructor(
    private readonly host: AgentHost,
    private readonly gate: A2aGate,
    private readonly body: JsonBodyParser,
    private readonly errors: HttpErrorResponder,
  ) {}

  readonly middleware = (req: Request, res: Response, next: NextFunction): void => {
    const route = agentRouteOf(req.method, req.url);
    if (!route) return next();
    if (route === SHARED_ROOT) return void this.root(req, res, next);
    void this.serve(route, req, res);
  };

  /** POST /: read the body to see whose calls it holds; the task-tree API's go on to Nest's router. */
  private async root(req: Request, res: Response, next: NextFunction): Promise<void> {
    let route: AgentRoute | undefined;
    try {
      await this.body.parse(req, res);
      route = routeOfRoot(req.url, req.body);
    } catch (error) {
      return this.errors.reply(error, req, res, true);
    }
    if (!route) return next();
    await this.serve(route, req, res);
  }

  private async serve(route: AgentRoute, req: Request, res: Response): Promise<void> {
    labelRoute(req, route.pattern, route.jsonRpc ? 'jsonrpc' : 'http');
    const fail = (error: unknown) => this.errors.reply(error, req, res, route.jsonRpc);
    const problem = route.problem ?? urlTextProblem(req.url);
    if (problem) return fail(problem);
    try {
      await this.gate.admitHttp(req, res, route.agentId);
      this.host.serve(route.agentId, route.base, route.rest, req, res, fail);
    } catch (error) {
      fail(error);
    }
  }
}
