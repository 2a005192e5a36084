import { Module } from '@nestjs/common';
import { A2aModule } from '../a2a/a2a.module';
import { RegistryModule } from '../registry/registry.module';
import { McpHttpController } from './mcp-http.controller';
import { McpServerFactory } from './mcp-server.factory';
import { McpSessions } from './mcp-sessions';
import { McpToolsService } from './mcp-tools.service';

/**
 * The MCP face: the registry and the A2A client as MCP tools, over Streamable HTTP at /mcp (and
 * over stdio through `npm run mcp`, which relays to it).
 */
@Module({
  imports: [A2aModule, RegistryModule],
  controllers: [McpHttpController],
  providers: [McpToolsService, McpServerFactory, McpSessions],
})
export class McpModule {}
