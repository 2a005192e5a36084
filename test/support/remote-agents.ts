import express from 'express';
import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AgentCard as V1AgentCard, TaskState } from '@a2a-js/sdk';
import {
  AgentEvent,
  AgentExecutor,
  DefaultRequestHandler as V1RequestHandler,
  InMemoryTaskStore as V1TaskStore,
} from '@a2a-js/sdk/server';
import {
  jsonRpcHandler as v1JsonRpc,
  restHandler as v1Rest,
  UserBuilder as V1UserBuilder,
} from '@a2a-js/sdk/server/express';
import { DefaultRequestHandler as V03RequestHandler, InMemoryTaskStore as V03TaskStore } from 'a2a-sdk-v03/server';
import { A2AExpressApp } from 'a2a-sdk-v03/server/express';
import { agentTextMessage } from '../../src/a2a/executors/agent-messages';

export interface RemoteAgent {
  baseUrl: string;
  /** Every request the agent received: method, path, headers and (JSON) body. */
  requests: { method: string; path: string; headers: Record<string, string | string[] | undefined>; body: unknown }[];
  close(): Promise<void>;
}

async function listen(app: express.Express): Promise<{ server: Server; baseUrl: string }> {
  return new Promise((resolve) => {
    const server = app.listen(0, '127.0.0.1', () => {
      resolve({ server, baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
    });
  });
}

/** Records each request; parses JSON first (the SDK's own parser then skips the read body). */
function recorder(requests: RemoteAgent['requests']): express.RequestHandler[] {
  return [
    express.json({ limit: '5mb' }),
    (req, _res, next) => {
      requests.push({ method: req.method, path: req.path, headers: req.headers, body: req.body as unknown });
      next();
    },
  ];
}

function stop(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
}

interface LightsOptions {
  /** Serve the card only at the legacy /.well-known/agent.json. */
  legacyCardPath?: boolean;
  /** Refuse requests without this X-Api-Key. */
  requireKey?: string;
}

/**
 * "Lights": an A2A v0.3-only agent on the official SDK 0.3.14 (JSON-RPC, streaming). It answers
 * with a task - working, an artifact, then completed with a status message. A request whose text
 * contains "slow" keeps working until it is cancelled (or 20 s pass).
 */
export async function startLightsAgent(options: LightsOptions = {}): Promise<RemoteAgent> {
  const requests: RemoteAgent['requests'] = [];
  const cancelled = new Set<string>();
  const app = express();
  app.use(...recorder(requests));
  if (options.requireKey) {
    app.use((req, res, next) => {
      if (req.headers['x-api-key'] !== options.requireKey) res.status(401).json({ error: 'bad key' });
      else next();
    });
  }
  const { server, baseUrl } = await listen(app);
  const card = {
    protocolVersion: '0.3.0',
    name: 'Lights',
    description: 'Controls the lights in the house',
    url: `${baseUrl}/`,
    preferredTransport: 'JSONRPC',
    version: '1.2.0',
    capabilities: { streaming: true, pushNotifications: false },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [
      {
        id: 'lights',
        name: 'Lights control',
        description: 'Turns lights on and off, dims them',
        tags: ['lights', 'home'],
        examples: ['turn on the kitchen lights'],
      },
    ],
  };
  const executor = {
    async execute(
      ctx: {
        taskId: string;
        contextId: string;
        task?: unknown;
        userMessage: { parts: { kind: string; text?: string }[] };
      },
      bus: { publish(e: unknown): void; finished(): void },
    ) {
      const { taskId, contextId } = ctx;
      const text = ctx.userMessage.parts.flatMap((p) => (p.kind === 'text' && p.text ? [p.text] : [])).join(' ');
      const now = () => new Date().toISOString();
      if (!ctx.task) {
        bus.publish({
          kind: 'task',
          id: taskId,
          contextId,
          status: { state: 'submitted', timestamp: now() },
          history: [ctx.userMessage],
        });
      }
      bus.publish({
        kind: 'status-update',
        taskId,
        contextId,
        status: { state: 'working', timestamp: now() },
        final: false,
      });
      if (text.includes('slow')) {
        const deadline = Date.now() + 20_000;
        while (!cancelled.has(taskId) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
        if (cancelled.has(taskId)) return;
      }
      bus.publish({
        kind: 'artifact-update',
        taskId,
        contextId,
        artifact: { artifactId: 'result', parts: [{ kind: 'text', text: `Lights: ${text}` }] },
        lastChunk: true,
      });
      bus.publish({
        kind: 'status-update',
        taskId,
        contextId,
        status: {
          state: 'completed',
          timestamp: now(),
          message: {
            kind: 'message',
            role: 'agent',
            messageId: randomUUID(),
            taskId,
            contextId,
            parts: [{ kind: 'text', text: `Done: ${text}` }],
          },
        },
        final: true,
      });
      bus.finished();
    },
    async cancelTask(taskId: string, bus: { publish(e: unknown): void; finished(): void }) {
      cancelled.add(taskId);
      bus.publish({
        kind: 'status-update',
        taskId,
        contextId: '',
        status: { state: 'canceled', timestamp: new Date().toISOString() },
        final: true,
      });
      bus.finished();
    },
  };
  const handler = new V03RequestHandler(card, new V03TaskStore(), executor);
  new A2AExpressApp(handler).setupRoutes(app, '', [], options.legacyCardPath ? '.well-known/agent.json' : undefined);
  return { baseUrl, requests, close: () => stop(server) };
}

/**
 * "Music": an agent on the official SDK 1.3 serving A2A v1.0 and v0.3 over JSON-RPC and
 * HTTP+JSON. It answers with a message, no task.
 */
export function startMusicAgent(): Promise<RemoteAgent> {
  return startV1Agent(
    { name: 'Music', description: 'Plays music in any room', version: '2.0.0' },
    {
      id: 'play',
      name: 'Play music',
      description: 'Plays songs, artists or genres',
      tags: ['music', 'audio'],
      examples: ['play jazz in the living room'],
    },
    async (ctx, bus) => {
      bus.publish(AgentEvent.message(agentTextMessage(`Playing: ${textIn(ctx.userMessage)}`, ctx.contextId)));
      bus.finished();
    },
  );
}

/**
 * "Notes": an agent on the official SDK 1.3 that answers the LangGraph way: a completed task
 * whose answer is the last agent message of its history (no artifact, no status message).
 */
export function startNotesAgent(): Promise<RemoteAgent> {
  return startV1Agent(
    { name: 'Notes', description: 'Takes notes', version: '1.0.0' },
    {
      id: 'note',
      name: 'Take a note',
      description: 'Writes down what you say',
      tags: ['notes'],
      examples: ['note: buy milk'],
    },
    async (ctx, bus) => {
      const answer = agentTextMessage(`Noted: ${textIn(ctx.userMessage)}`, ctx.contextId, ctx.taskId);
      bus.publish(
        AgentEvent.task({
          id: ctx.taskId,
          contextId: ctx.contextId,
          status: { state: TaskState.TASK_STATE_COMPLETED, message: undefined, timestamp: new Date().toISOString() },
          history: [ctx.userMessage, answer],
          artifacts: [],
          metadata: undefined,
        }),
      );
      bus.finished();
    },
  );
}

function textIn(message: { parts: { content?: { $case: string; value?: unknown } }[] }): string {
  return message.parts.flatMap((p) => (p.content?.$case === 'text' ? [String(p.content.value)] : [])).join(' ');
}

/**
 * An agent on the official SDK 1.3 with one skill, serving v1.0 and v0.3 over JSON-RPC and
 * HTTP+JSON; its card says it streams when `streaming` is set.
 */
export async function startV1Agent(
  about: { name: string; description: string; version: string },
  skill: { id: string; name: string; description: string; tags: string[]; examples: string[] },
  execute: AgentExecutor['execute'],
  { streaming = false } = {},
): Promise<RemoteAgent> {
  const requests: RemoteAgent['requests'] = [];
  const app = express();
  app.use(...recorder(requests));
  const { server, baseUrl } = await listen(app);
  const iface = (url: string, protocolBinding: string, protocolVersion: string) => ({
    url,
    protocolBinding,
    protocolVersion,
    tenant: '',
  });
  const card: V1AgentCard = {
    ...about,
    supportedInterfaces: [
      iface(`${baseUrl}/v1`, 'JSONRPC', '1.0'),
      iface(`${baseUrl}/json`, 'HTTP+JSON', '1.0'),
      iface(`${baseUrl}/v1`, 'JSONRPC', '0.3'),
      iface(`${baseUrl}/json`, 'HTTP+JSON', '0.3'),
    ],
    provider: undefined,
    capabilities: { streaming, pushNotifications: false, extensions: [] },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [{ ...skill, inputModes: [], outputModes: [], securityRequirements: [] }],
    signatures: [],
  };
  const handler = new V1RequestHandler(card, new V1TaskStore(), { execute, async cancelTask() {} });
  const options = {
    requestHandler: handler,
    userBuilder: V1UserBuilder.noAuthentication,
    legacyCompat: { enabled: true },
  };
  app.use('/v1', v1JsonRpc(options));
  app.use('/json', v1Rest(options));
  app.get('/.well-known/agent-card.json', (_req, res) => {
    res.json(V1AgentCard.toJSON(card));
  });
  return { baseUrl, requests, close: () => stop(server) };
}

/**
 * "Thermostat": an agent on the official SDK 1.3 (v1.0 and v0.3 JSON-RPC) that asks before it
 * acts: without a number in the request its task goes to input-required with the question
 * "What temperature would you like?"; a number (in the first or the follow-up message of the
 * task) completes it.
 */
export async function startThermostatAgent(): Promise<RemoteAgent> {
  const requests: RemoteAgent['requests'] = [];
  const app = express();
  app.use(...recorder(requests));
  const { server, baseUrl } = await listen(app);
  const card: V1AgentCard = {
    name: 'Thermostat',
    description: 'Sets the heating',
    version: '1.0.0',
    supportedInterfaces: [
      { url: `${baseUrl}/v1`, protocolBinding: 'JSONRPC', protocolVersion: '1.0', tenant: '' },
      { url: `${baseUrl}/v1`, protocolBinding: 'JSONRPC', protocolVersion: '0.3', tenant: '' },
    ],
    provider: undefined,
    capabilities: { streaming: false, pushNotifications: false, extensions: [] },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [
      {
        id: 'temperature',
        name: 'Thermostat',
        description: 'Sets the target temperature of the heating',
        tags: ['thermostat', 'temperature', 'heating', 'climate'],
        examples: ['set the thermostat to 21 degrees'],
        inputModes: [],
        outputModes: [],
        securityRequirements: [],
      },
    ],
    signatures: [],
  };

  const handler = new V1RequestHandler(card, new V1TaskStore(), {
    async execute(ctx, bus) {
      const text = ctx.userMessage.parts
        .flatMap((p) => (p.content?.$case === 'text' ? [p.content.value] : []))
        .join(' ');
      const degrees = /\d+/.exec(text)?.[0];
      const status = (state: TaskState, message: string) => ({
        state,
        message: agentTextMessage(message, ctx.contextId, ctx.taskId),
        timestamp: new Date().toISOString(),
      });
      const state = degrees ? TaskState.TASK_STATE_COMPLETED : TaskState.TASK_STATE_INPUT_REQUIRED;
      const message = degrees ? `Thermostat set to ${degrees} degrees` : 'What temperature would you like?';
      if (!ctx.task) {
        bus.publish(
          AgentEvent.task({
            id: ctx.taskId,
            contextId: ctx.contextId,
            status: status(state, message),
            history: [ctx.userMessage],
            artifacts: [],
            metadata: undefined,
          }),
        );
      } else {
        bus.publish(
          AgentEvent.statusUpdate({
            taskId: ctx.taskId,
            contextId: ctx.contextId,
            status: status(state, message),
            metadata: undefined,
          }),
        );
      }
      bus.finished();
    },
    async cancelTask() {},
  });
  app.use(
    '/v1',
    v1JsonRpc({
      requestHandler: handler,
      userBuilder: V1UserBuilder.noAuthentication,
      legacyCompat: { enabled: true },
    }),
  );
  app.get('/.well-known/agent-card.json', (_req, res) => {
    res.json(V1AgentCard.toJSON(card));
  });
  return { baseUrl, requests, close: () => stop(server) };
}
