import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { isJSONRPCRequest, JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

const USAGE = `Usage: SWITCHBOARD_API_KEY=sbk_... [SWITCHBOARD_URL=http://localhost:8080] npm run -s mcp

MCP over stdio for desktop MCP hosts: relays every message between this process's stdin/stdout
and the Switchboard at SWITCHBOARD_URL (its Streamable HTTP endpoint /mcp), authenticated with
SWITCHBOARD_API_KEY. The tools run in the hub, so a running Switchboard is needed. Diagnostics go
to stderr; stdout carries only MCP.`;

/** Relays MCP between stdio and a running hub's /mcp: the tools, sessions and notifications are the hub's. */
async function main(): Promise<void> {
  const key = process.env.SWITCHBOARD_API_KEY?.trim();
  if (!key || process.argv.includes('--help')) {
    process.stderr.write(`${USAGE}\n`);
    process.exitCode = key ? 0 : 2;
    return;
  }
  const base = process.env.SWITCHBOARD_URL?.trim() || `http://localhost:${process.env.PORT ?? 8080}`;
  let endpoint: URL;
  try {
    endpoint = new URL('/mcp', base);
  } catch {
    process.stderr.write(`SWITCHBOARD_URL is not a URL: ${base}\n`);
    process.exitCode = 2;
    return;
  }
  const hub = new StreamableHTTPClientTransport(endpoint, { requestInit: { headers: { 'X-Api-Key': key } } });
  const host = new StdioServerTransport();
  let closing = false;
  const close = async () => {
    if (closing) return;
    closing = true;
    await Promise.allSettled([hub.close(), host.close()]);
  };

  host.onmessage = (message: JSONRPCMessage) => {
    hub.send(message).catch(async (error: Error) => {
      process.stderr.write(`switchboard mcp: ${error.message}\n`);
      // A request the hub never got still gets an answer, so the host does not wait for ever.
      if (isJSONRPCRequest(message)) {
        await host.send({
          jsonrpc: '2.0',
          id: message.id,
          error: { code: -32000, message: `Switchboard at ${base} could not be reached: ${error.message}` },
        });
      }
    });
  };
  hub.onmessage = (message: JSONRPCMessage) => {
    host.send(message).catch((error: Error) => process.stderr.write(`switchboard mcp: ${error.message}\n`));
  };
  hub.onerror = (error: Error) => process.stderr.write(`switchboard mcp: ${error.message}\n`);
  host.onclose = () => void close();
  process.stdin.on('end', () => void close());

  await hub.start();
  await host.start();
}

main().catch((error: Error) => {
  process.stderr.write(`switchboard mcp: ${error.message}\n`);
  process.exitCode = 1;
});
