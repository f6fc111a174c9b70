import { A2AAgentCaller } from '../actions/sub-agents/agent-client.js';
import type { AgentCaller } from '../actions/sub-agents/agent-client.js';
import { agentCallBuiltIns } from '../actions/sub-agents/agent-call-action.js';
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
  /** calls sub-agents (default: the @a2a-js/sdk client) */
  readonly agentCaller?: AgentCaller;
}

/** The built-ins that need more than the tracker: the knowledge search and the MCP tool calls. */
export function runtimeBuiltIns(options: RuntimeBuiltInsOptions): Map<string, RuntimeBuiltInAction> {
  const builtIns = knowledgeBuiltIns(options);
  for (const [name, action] of mcpBuiltIns(options.assistant, options)) builtIns.set(name, action);
  for (const [name, action] of agentBuiltIns(options.assistant, options)) builtIns.set(name, action);
  return builtIns;
}

function agentBuiltIns(
  assistant: Assistant,
  options: RuntimeBuiltInsOptions,
): Map<string, RuntimeBuiltInAction> {
  if (assistant.subAgents.size === 0) return new Map();
  const { logger } = options;
  logger?.info({ agents: [...assistant.subAgents.keys()] }, 'sub-agents ready (connected when first called)');
  return agentCallBuiltIns({
    agents: assistant.subAgents,
    caller: options.agentCaller ?? new A2AAgentCaller(options.env ?? process.env),
    onFailure: (agent, reason) =>
      logger?.warn({ code: 'AGENT_CALL_FAILED', agent }, `sub-agent call failed: ${reason}`),
  });
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
