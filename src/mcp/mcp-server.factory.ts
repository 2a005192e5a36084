import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ErrorCode as McpErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { Injectable, Logger } from '@nestjs/common';
import { z } from 'zod';
import { PUSH_EVENTS } from '../a2a/push/entities/push-subscription.entity';
import type { Principal } from '../platform/auth/principal';
import type { Scope } from '../platform/auth/scopes';
import { isDomainError } from '../platform/errors/domain-error';
import { jsonRpcCodeFor } from '../platform/errors/json-rpc-error.mapping';
import { McpToolsService, ToolError } from './mcp-tools.service';

const VERSION = '1.0.0';
const TASK_URI = 'switchboard://tasks/';

const baseUrl = z.string().trim().min(1).max(2_000).describe('The agent\'s base URL, e.g. "http://localhost:9999"');
const agentId = z.string().trim().min(1).max(200).describe('The agent id (see list_remote_agents)');
const taskId = z.string().trim().min(1).max(200).describe('A task id the hub returned');

/**
 * Builds the MCP server one session talks to: the A2A client tools with their input schemas,
 * each allowed by the same scope as its REST equivalent, answering JSON text; failures are tool
 * errors with plain text.
 */
@Injectable()
export class McpServerFactory {
  private readonly logger = new Logger('Mcp');

  constructor(private readonly tools: McpToolsService) {}

  create(principal: Principal, closed: AbortSignal): McpServer {
    const server = new McpServer(
      { name: 'switchboard', version: VERSION },
      {
        capabilities: { logging: {} },
        instructions:
          'Switchboard is an A2A agent hub. Resolve or list agents, send them messages (send_message waits for ' +
          'the answer; send_streaming_message returns at once), and follow their tasks with get_task, ' +
          'list_tasks, cancel_task and subscribe_to_task, or have updates POSTed to a webhook with ' +
          'configure_push_notifications.',
      },
    );
    const tool = <Shape extends z.ZodRawShape>(
      name: string,
      scope: Scope,
      description: string,
      inputSchema: Shape,
      run: (input: z.infer<z.ZodObject<Shape>>) => Promise<unknown>,
    ) => {
      server.registerTool(name, { description, inputSchema }, (async (input: z.infer<z.ZodObject<Shape>>) => {
        if (!principal.has(scope)) return failure(`Forbidden: ${name} needs an API key with the ${scope} scope`);
        try {
          return success(await run(input));
        } catch (error) {
          return failure(this.describe(name, error));
        }
      }) as never);
    };

    tool(
      'resolve_agent_card',
      'agents:write',
      'Fetches {base_url}/.well-known/agent-card.json (then /.well-known/agent.json), registers the agent in the hub ' +
        '(or refreshes it when that base URL is registered) and returns its record.',
      { base_url: baseUrl },
      ({ base_url }) => this.tools.resolveAgentCard(base_url),
    );
    tool(
      'validate_agent_card',
      'agents:write',
      "Fetches an agent's card and returns the registry's validation report, without registering anything.",
      { base_url: baseUrl },
      ({ base_url }) => this.tools.validateAgentCard(base_url),
    );
    tool('list_remote_agents', 'agents:read', 'The remote agents registered in the hub.', {}, () =>
      this.tools.listRemoteAgents(),
    );
    tool(
      'send_message',
      'messages',
      'Sends a text message (A2A message/send) and waits for the answer: the task or message as the agent answered, ' +
        'with its text wherever the agent put it (artifacts, history or status).',
      { agent_id: agentId, text: z.string().min(1).max(100_000).describe('The message text') },
      ({ agent_id, text }) => this.tools.sendMessage(principal, agent_id, text),
    );
    tool(
      'send_streaming_message',
      'messages',
      'Starts a real A2A message/stream and returns at once with the task id; the stream keeps updating the task ' +
        '(read it with get_task, follow it with subscribe_to_task).',
      { agent_id: agentId, text: z.string().min(1).max(100_000).describe('The message text') },
      ({ agent_id, text }) => this.tools.sendStreamingMessage(principal, agent_id, text),
    );
    tool(
      'get_task',
      'messages',
      'A task from the hub, refreshed from the remote agent while it is still running.',
      { task_id: taskId },
      ({ task_id }) => this.tools.getTask(principal, task_id),
    );
    tool(
      'list_tasks',
      'messages',
      'Your tasks across agents, most recent first.',
      { limit: z.number().int().min(1).max(100).optional().describe('At most this many (default 20)') },
      ({ limit }) => this.tools.listTasks(principal, limit),
    );
    tool(
      'cancel_task',
      'messages',
      'Cancels a task (A2A tasks/cancel on the agent).',
      { task_id: taskId },
      ({ task_id }) => this.tools.cancelTask(principal, task_id),
    );
    tool(
      'subscribe_to_task',
      'messages',
      'Resubscribes to a running task: each update comes as a notification (resources/updated for ' +
        `${TASK_URI}{task_id} and a log message with the task) while this session stays connected.`,
      { task_id: taskId },
      ({ task_id }) =>
        this.tools.subscribeToTask(
          principal,
          task_id,
          (view, done) => {
            void server.server.sendResourceUpdated({ uri: `${TASK_URI}${task_id}` }).catch(() => undefined);
            void server
              .sendLoggingMessage({ level: 'info', logger: 'switchboard.tasks', data: { ...view, done } })
              .catch(() => undefined);
          },
          closed,
        ),
    );
    tool(
      'configure_push_notifications',
      'messages',
      'Registers a webhook for all your tasks with the agent: each status and/or artifact update is POSTed to it ' +
        '(A2A v1.0 StreamResponse JSON), with retries. Configuring the same URL again changes its events.',
      {
        agent_id: agentId,
        webhook_url: z.string().trim().min(1).max(2_000).describe('An http(s) URL the hub may call'),
        events: z
          .array(z.enum(PUSH_EVENTS))
          .min(1)
          .optional()
          .describe('Which updates to send (default both: ["status_update", "artifact_update"])'),
      },
      ({ agent_id, webhook_url, events }) =>
        this.tools.configurePushNotifications(principal, agent_id, webhook_url, events),
    );
    tool(
      'delete_push_notifications',
      'messages',
      'Removes a webhook configure_push_notifications registered.',
      { config_id: z.string().uuid().describe('The config_id configure_push_notifications returned') },
      ({ config_id }) => this.tools.deletePushNotifications(principal, config_id),
    );
    tool(
      'get_extended_agent_card',
      'admin',
      "An agent's full record (card, auth mode, timestamps; never secrets) and its authenticated extended card " +
        'when it offers one.',
      { agent_id: agentId },
      ({ agent_id }) => this.tools.getExtendedAgentCard(agent_id),
    );

    server.registerResource(
      'task',
      new ResourceTemplate(`${TASK_URI}{task_id}`, { list: undefined }),
      { description: 'A task of yours, as get_task shows it', mimeType: 'application/json' },
      async (uri, variables) => {
        const id = String(variables.task_id);
        const view = await this.tools.getTask(principal, id);
        return { contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(view) }] };
      },
    );
    answerClientMistakesAsSuch(server);
    return server;
  }

  /** The text of a failure: ours as they are; the registry's and stores' by their message; others logged. */
  private describe(tool: string, error: unknown): string {
    if (error instanceof ToolError) return error.message;
    if (isDomainError(error)) return error.message;
    this.logger.error(`MCP tool ${tool} failed: ${(error as Error).message}`);
    return `${tool} failed unexpectedly; see the hub's log`;
  }
}

function success(result: unknown): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(result) }] };
}

function failure(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

type RequestHandler = (request: unknown, extra: unknown) => Promise<unknown>;

/**
 * The SDK answers whatever a request handler throws with the error's numeric `code`, else -32603:
 * so a request whose params do not fit the method (its schema's ZodError: tools/call without a
 * name, `arguments: null`, an unknown logging level), a resource uri that is not a URL, or a task
 * resource that is not there would read as the hub's failure. They are the client's: -32602 with
 * the problem (as the SDK answers an unknown resource), and the hub's errors with their code from
 * the JSON-RPC table. The SDK keeps its handlers in a private map (1.x), each parsing the params
 * before it calls the registered one; hostile-input e2e notices if that changes.
 */
function answerClientMistakesAsSuch(server: McpServer): void {
  const handlers = (server.server as unknown as { _requestHandlers?: Map<string, RequestHandler> })._requestHandlers;
  if (!(handlers instanceof Map)) return;
  for (const [method, handler] of handlers) {
    handlers.set(method, async (request, extra) => {
      try {
        return await handler(request, extra);
      } catch (error) {
        throw asMcpError(error);
      }
    });
  }
}

function asMcpError(error: unknown): unknown {
  if (error instanceof McpError) return error;
  // A tool's own failure (a task that is not there) reached through a resource.
  if (error instanceof ToolError) return new McpError(McpErrorCode.InvalidParams, error.message);
  if (isDomainError(error)) return new McpError(jsonRpcCodeFor(error.code), error.message);
  const issues = (error as { issues?: unknown } | null)?.issues;
  if (/ZodError$/.test((error as Error | null)?.name ?? '') && Array.isArray(issues)) {
    const problems = (issues as { path?: unknown[]; message?: string }[]).map(
      (issue) => `${(issue.path ?? []).join('.') || 'params'}: ${issue.message ?? 'invalid'}`,
    );
    return new McpError(McpErrorCode.InvalidParams, `Invalid params: ${problems.join('; ')}`);
  }
  if ((error as { code?: unknown } | null)?.code === 'ERR_INVALID_URL') {
    return new McpError(McpErrorCode.InvalidParams, 'Invalid params: uri is not a URL');
  }
  return error;
}
