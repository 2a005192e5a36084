import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { Principal } from '../platform/auth/principal';
import { AppConfig } from '../platform/config/app-config';
import { McpServerFactory } from './mcp-server.factory';

export interface McpSession {
  id: string;
  /** The API key that opened it: only that key continues it. */
  keyId: string;
  transport: StreamableHTTPServerTransport;
  server: McpServer;
  closed: AbortController;
  lastUsed: number;
}

/**
 * The MCP sessions of this replica (Streamable HTTP keeps a session's server in memory, so behind
 * several replicas a client must stick to one). Each belongs to the key that opened it; idle ones
 * (MCP_SESSION_IDLE_SECONDS) and all at shutdown are closed, which ends their subscriptions.
 */
@Injectable()
export class McpSessions implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('Mcp');
  private readonly sessions = new Map<string, McpSession>();
  private sweeper?: NodeJS.Timeout;

  constructor(
    private readonly servers: McpServerFactory,
    private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    const idleMs = this.config.mcp.sessionIdleSeconds * 1000;
    this.sweeper = setInterval(
      () => {
        const now = Date.now();
        for (const session of this.sessions.values()) if (now - session.lastUsed > idleMs) void this.close(session);
      },
      Math.min(idleMs, 60_000),
    );
    this.sweeper.unref();
  }

  /** A new session's transport, connected to a server for this caller; it is kept once initialized. */
  async open(principal: Principal): Promise<StreamableHTTPServerTransport> {
    const closed = new AbortController();
    const server = this.servers.create(principal, closed.signal);
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        this.sessions.set(id, { id, keyId: principal.keyId, transport, server, closed, lastUsed: Date.now() });
      },
    });
    transport.onclose = () => {
      closed.abort();
      if (transport.sessionId) this.sessions.delete(transport.sessionId);
    };
    await server.connect(transport);
    return transport;
  }

  /** The caller's session with this id (another key's session is as unknown as a missing one). */
  find(id: string, principal: Principal): McpSession | undefined {
    const session = this.sessions.get(id);
    if (!session || session.keyId !== principal.keyId) return undefined;
    session.lastUsed = Date.now();
    return session;
  }

  get size(): number {
    return this.sessions.size;
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.sweeper);
    await Promise.all([...this.sessions.values()].map((session) => this.close(session)));
  }

  private async close(session: McpSession): Promise<void> {
    this.sessions.delete(session.id);
    session.closed.abort();
    await session.server.close().catch((error: Error) => this.logger.warn(`Closing MCP session: ${error.message}`));
  }
}
