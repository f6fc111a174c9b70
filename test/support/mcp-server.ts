/**
 * A real MCP server for tests, built with the official MCP TypeScript SDK (stateless Streamable HTTP on
 * loopback): each POST gets a fresh server and transport. Tools are given as plain handlers with JSON
 * Schemas; every call is recorded with its arguments and headers.
 */
import { createServer } from 'node:http';
import type { IncomingHttpHeaders, Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

export interface TestTool {
  readonly name: string;
  readonly description?: string;
  readonly inputSchema?: Record<string, unknown>;
  run(args: Record<string, unknown>): Promise<CallToolResult> | CallToolResult;
}

export interface ToolCallRecord {
  readonly tool: string;
  readonly args: Record<string, unknown>;
  readonly headers: IncomingHttpHeaders;
}

export interface TestMcpServer {
  readonly url: string;
  readonly calls: ToolCallRecord[];
  close(): Promise<void>;
}

export async function startMcpServer(tools: readonly TestTool[]): Promise<TestMcpServer> {
  const calls: ToolCallRecord[] = [];
  const http: HttpServer = createServer((req, res) => {
    const mcp = mcpServerFor(tools, calls, req.headers);
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    res.on('close', () => {
      void transport.close();
      void mcp.close();
    });
    mcp
      .connect(transport)
      .then(() => transport.handleRequest(req, res))
      .catch(() => {
        if (!res.headersSent) res.writeHead(500).end();
      });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    calls,
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}

function mcpServerFor(
  tools: readonly TestTool[],
  calls: ToolCallRecord[],
  headers: IncomingHttpHeaders,
): Server {
  const server = new Server({ name: 'parley-test-tools', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: tools.map((tool) => ({
      name: tool.name,
      description: tool.description ?? tool.name,
      inputSchema: { type: 'object' as const, ...(tool.inputSchema ?? {}) },
    })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = tools.find((candidate) => candidate.name === request.params.name);
    const args = request.params.arguments ?? {};
    calls.push({ tool: request.params.name, args, headers });
    if (!tool) return { content: [{ type: 'text', text: `no tool ${request.params.name}` }], isError: true };
    return tool.run(args);
  });
  return server;
}
