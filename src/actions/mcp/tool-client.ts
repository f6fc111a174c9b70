/**
 * Calls one tool of an MCP server with the official MCP TypeScript SDK, as Rasa does: a new Streamable
 * HTTP session for every call (a restarted server is no problem), the tool looked up first so that a
 * missing one says so, then `tools/call`. One deadline bounds the whole call. Failures are typed.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { AppError } from '../../core/errors.js';
import type { ErrorCode } from '../../core/errors.js';
import { PARLEY_VERSION } from '../../version.js';
import type { McpServerConfig } from '../../core/mcp/servers.js';

/** What a tool answered, as the output mapping sees it (Rasa's `result`). */
export interface ToolResult {
  readonly content: readonly unknown[];
  readonly structuredContent?: unknown;
  readonly isError: boolean;
}

export interface ToolCaller {
  callTool(
    server: McpServerConfig,
    tool: string,
    args: Readonly<Record<string, unknown>>,
  ): Promise<ToolResult>;
}

export class McpToolClient implements ToolCaller {
  async callTool(
    server: McpServerConfig,
    tool: string,
    args: Readonly<Record<string, unknown>>,
  ): Promise<ToolResult> {
    const deadline = AbortSignal.timeout(server.timeoutMs);
    const client = new Client({ name: 'parley', version: PARLEY_VERSION });
    const transport = new StreamableHTTPClientTransport(server.url, {
      requestInit: { headers: { ...server.headers } },
    });
    const options = { signal: deadline, timeout: server.timeoutMs };
    try {
      await client.connect(transport, options);
      const listed = await client.listTools(undefined, options);
      if (!listed.tools.some((candidate) => candidate.name === tool))
        throw mcpError(
          'MCP_TOOL_NOT_FOUND',
          `Tool '${tool}' is not available on MCP server '${server.name}'.`,
        );
      const result = await client.callTool({ name: tool, arguments: { ...args } }, undefined, options);
      return {
        content: Array.isArray(result.content) ? result.content : [],
        structuredContent: result.structuredContent,
        isError: result.isError === true,
      };
    } catch (error) {
      throw asMcpFailure(error, server, deadline);
    } finally {
      await client.close().catch(() => undefined);
    }
  }
}

function asMcpFailure(error: unknown, server: McpServerConfig, deadline: AbortSignal): AppError {
  if (error instanceof AppError) return error;
  const reason = error instanceof Error ? error.message : String(error);
  if (deadline.aborted)
    return mcpError(
      'MCP_TIMEOUT',
      `MCP server '${server.name}' did not answer within ${server.timeoutMs} ms.`,
    );
  const rpcCode = (error as { code?: unknown }).code;
  // an McpError carries the server's JSON-RPC error code; transport failures carry none (or an HTTP status)
  if (typeof rpcCode === 'number' && rpcCode < 0)
    return mcpError('MCP_TOOL_FAILED', `MCP server '${server.name}' refused the call: ${reason}`);
  return mcpError(
    'MCP_SERVER_UNREACHABLE',
    `MCP server '${server.name}' at ${server.url.origin} failed: ${reason}`,
  );
}

export function mcpError(code: ErrorCode, message: string): AppError {
  return new AppError({ code, message });
}
