import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { Controller, Delete, Get, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { CurrentPrincipal } from '../platform/auth/auth.decorators';
import { JsonRpcEndpoint } from '../platform/http/json-rpc-endpoint.decorator';
import type { Principal } from '../platform/auth/principal';
import { McpSessions } from './mcp-sessions';

/**
 * MCP over Streamable HTTP at /mcp (any valid API key; each tool checks its own scope). A POST
 * of `initialize` opens a session (`Mcp-Session-Id`); later POSTs, the GET notification stream
 * and DELETE name it. The SDK's transport does the protocol.
 */
@ApiExcludeController()
@Controller('mcp')
export class McpHttpController {
  constructor(private readonly sessions: McpSessions) {}

  /** Errors before the transport (no key, bad JSON, too large) answer in JSON-RPC, as MCP clients read them. */
  @Post()
  @JsonRpcEndpoint()
  async post(@CurrentPrincipal() principal: Principal, @Req() req: Request, @Res() res: Response): Promise<void> {
    const id = sessionIdOf(req);
    if (id) return this.continue(id, principal, req, res);
    if (!isInitializeRequest(req.body)) {
      return refuse(res, 400, 'Bad Request: no Mcp-Session-Id header; start a session with initialize');
    }
    const transport = await this.sessions.open(principal);
    await transport.handleRequest(req, res, req.body);
  }

  @Get()
  async stream(@CurrentPrincipal() principal: Principal, @Req() req: Request, @Res() res: Response): Promise<void> {
    const id = sessionIdOf(req);
    if (!id) return refuse(res, 400, 'Bad Request: the notification stream needs an Mcp-Session-Id header');
    await this.continue(id, principal, req, res);
  }

  @Delete()
  async end(@CurrentPrincipal() principal: Principal, @Req() req: Request, @Res() res: Response): Promise<void> {
    const id = sessionIdOf(req);
    if (!id) return refuse(res, 400, 'Bad Request: no Mcp-Session-Id header');
    await this.continue(id, principal, req, res);
  }

  private async continue(id: string, principal: Principal, req: Request, res: Response): Promise<void> {
    const session = this.sessions.find(id, principal);
    // Unknown or expired: 404 tells MCP clients to start a new session.
    if (!session) return refuse(res, 404, `Session not found: ${id} (expired or never opened); initialize again`);
    await session.transport.handleRequest(req, res, req.body);
  }
}

function sessionIdOf(req: Request): string | undefined {
  const value = req.headers['mcp-session-id'];
  return (Array.isArray(value) ? value[0] : value)?.trim() || undefined;
}

function refuse(res: Response, status: number, message: string): void {
  res.status(status).json({ jsonrpc: '2.0', error: { code: -32000, message }, id: null });
}
