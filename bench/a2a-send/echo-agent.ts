import { AgentCard, Role } from '@a2a-js/sdk';
import {
  AgentEvent,
  AgentExecutor,
  DefaultRequestHandler,
  ExecutionEventBus,
  InMemoryTaskStore,
  RequestContext,
} from '@a2a-js/sdk/server';
import { jsonRpcHandler, UserBuilder } from '@a2a-js/sdk/server/express';
import express from 'express';
import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the echo agent puts before the text it received. */
export const ECHO_PREFIX = 'echo: ';

/**
 * The agent every target serves: it answers each message with one Message (no task) holding the
 * text it received, prefixed with ECHO_PREFIX. Built only from SDK calls, as the "Music" agent
 * in test/support/remote-agents.ts is, so the reference server and the hub run the same code.
 */
export class EchoExecutor implements AgentExecutor {
  async execute(context: RequestContext, bus: ExecutionEventBus): Promise<void> {
    const text = context.userMessage.parts
      .flatMap((part) => (part.content?.$case === 'text' ? [part.content.value] : []))
      .join(' ');
    bus.publish(
      AgentEvent.message({
        messageId: randomUUID(),
        contextId: context.contextId,
        taskId: '',
        role: Role.ROLE_AGENT,
        parts: [
          {
            content: { $case: 'text', value: `${ECHO_PREFIX}${text}` },
            metadata: undefined,
            filename: '',
            mediaType: 'text/plain',
          },
        ],
        metadata: undefined,
        extensions: [],
        referenceTaskIds: [],
      }),
    );
    bus.finished();
  }

  async cancelTask(): Promise<void> {
    // Nothing runs long enough to cancel.
  }
}

/** The echo agent's card (A2A v1.0 shape), served over JSON-RPC for v1.0 and v0.3. */
export function echoCard(baseUrl: string): AgentCard {
  const jsonRpc = (protocolVersion: string) => ({
    url: `${baseUrl}/v1`,
    protocolBinding: 'JSONRPC',
    protocolVersion,
    tenant: '',
  });
  return {
    name: 'Echo',
    description: 'Answers every message with its own text',
    version: '1.0.0',
    supportedInterfaces: [jsonRpc('1.0'), jsonRpc('0.3')],
    provider: undefined,
    capabilities: { streaming: false, pushNotifications: false, extensions: [] },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [
      {
        id: 'echo',
        name: 'Echo',
        description: 'Repeats what it is told',
        tags: ['echo', 'benchmark'],
        examples: ['hello'],
        inputModes: [],
        outputModes: [],
        securityRequirements: [],
      },
    ],
    signatures: [],
  };
}

export interface EchoServer {
  baseUrl: string;
  /** Requests received at /v1, by A2A-Version header ("none" when absent). */
  requestsByVersion(): Record<string, number>;
  /** TCP connections accepted so far (a client that reuses connections opens few). */
  connections(): number;
  close(): Promise<void>;
}

/**
 * The reference: the SDK's own server on plain express - DefaultRequestHandler, InMemoryTaskStore
 * and the SDK's jsonRpcHandler with v0.3 compatibility and no authentication - serving the echo
 * agent at /v1, with its card at /.well-known/agent-card.json (so the hub can register it).
 */
export async function startEchoServer(host = '127.0.0.1'): Promise<EchoServer> {
  const app = express();
  app.disable('x-powered-by');
  const counts: Record<string, number> = {};
  const server = await new Promise<Server>((resolve) => {
    const listening = app.listen(0, host, () => resolve(listening));
  });
  let connections = 0;
  server.on('connection', () => connections++);
  const baseUrl = `http://${host}:${(server.address() as AddressInfo).port}`;
  const card = echoCard(baseUrl);
  const handler = new DefaultRequestHandler(card, new InMemoryTaskStore(), new EchoExecutor());
  app.use('/v1', (req, _res, next) => {
    const version = req.headers['a2a-version'];
    const key = typeof version === 'string' && version ? version : 'none';
    counts[key] = (counts[key] ?? 0) + 1;
    next();
  });
  app.use(
    '/v1',
    jsonRpcHandler({
      requestHandler: handler,
      userBuilder: UserBuilder.noAuthentication,
      legacyCompat: { enabled: true },
    }),
  );
  app.get('/.well-known/agent-card.json', (_req, res) => {
    res.json(AgentCard.toJSON(card));
  });
  return {
    baseUrl,
    requestsByVersion: () => ({ ...counts }),
    connections: () => connections,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
