import { mcpServersOf } from '../core/mcp/servers.js';
import { mcpToolBuiltIns } from '../actions/mcp/tool-call-action.js';
import { McpToolClient } from '../actions/mcp/tool-client.js';
import type { ToolCaller } from '../actions/mcp/tool-client.js';
import type { Assistant } from '../core/assistant.js';
import type { RuntimeBuiltInAction } from '../core/built-ins/types.js';
import { knowledgeBuiltIns } from './knowledge.js';
import type { KnowledgeSetupOptions } from './knowledge.js';

export interface RuntimeBuiltInsOptions extends KnowledgeSetupOptions {
  /** calls MCP tools (default: the MCP SDK's client over Streamable HTTP) */
  readonly toolCaller?: ToolCaller;
}

/** The built-ins that need more than the tracker: the knowledge search and the MCP tool calls. */
export function runtimeBuiltIns(options: RuntimeBuiltInsOptions): Map<string, RuntimeBuiltInAction> {
  const builtIns = knowledgeBuiltIns(options);
  for (const [name, action] of mcpBuiltIns(options.assistant, options)) builtIns.set(name, action);
  return builtIns;
}

function mcpBuiltIns(
  assistant: Assistant,
  options: RuntimeBuiltInsOptions,
): Map<string, RuntimeBuiltInAction> {
  const servers = mcpServersOf(assistant.endpoints, options.env ?? process.env);
  // validation refuses a project whose servers are invalid, but secrets are only read here: a tool call
  // without its server fails into pattern_internal_error rather than the server refusing to start
  if (!servers.ok) {
    options.logger?.error(
      { code: 'MCP_SERVERS_INVALID', problems: servers.problems },
      'MCP servers not usable',
    );
    return new Map();
  }
  if (servers.servers.size === 0) return new Map();
  options.logger?.info({ servers: [...servers.servers.keys()] }, 'MCP servers ready');
  return mcpToolBuiltIns({ servers: servers.servers, caller: options.toolCaller ?? new McpToolClient() });
}
