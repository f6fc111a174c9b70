/**
 * The runtime side of a tool call step (`call: <tool>` with `mcp_server` and `mapping`): the arguments
 * come from the slots (`mapping.input`; an unset slot is sent as null, as in Rasa), the tool is called,
 * and `mapping.output` sets the slots. A tool that reports an error, a server that is down or slow and
 * an output that cannot be mapped fail the action: the runtime then runs pattern_internal_error and the
 * flow goes on after it, as with a failing custom action and as Rasa does for MCP tools.
 */
import { MCP_TOOL_ACTION } from '../../core/mcp/tool-action.js';
import { eventEffect } from '../../core/built-ins/types.js';
import type { ActionEffect, RuntimeBuiltInAction } from '../../core/built-ins/types.js';
import type { ToolCall } from '../../core/flows/types.js';
import type { ActionRequest } from '../../core/ports.js';
import { mapToolOutput } from './output-mapping.js';
import type { McpServerConfig } from '../../core/mcp/servers.js';
import { mcpError } from './tool-client.js';
import type { ToolCaller, ToolResult } from './tool-client.js';

export interface McpToolActionOptions {
  readonly servers: ReadonlyMap<string, McpServerConfig>;
  readonly caller: ToolCaller;
}

export function mcpToolBuiltIns(options: McpToolActionOptions): Map<string, RuntimeBuiltInAction> {
  return new Map([[MCP_TOOL_ACTION, (request: ActionRequest) => callMappedTool(request, options)]]);
}

async function callMappedTool(
  request: ActionRequest,
  options: McpToolActionOptions,
): Promise<ActionEffect[]> {
  const { name, tool } = toolStepOf(request);
  const server = options.servers.get(tool.server);
  if (!server)
    throw mcpError('MCP_SERVER_UNKNOWN', `No MCP server '${tool.server}' in endpoints.yml (tool '${name}').`);
  const args: Record<string, unknown> = {};
  for (const input of tool.input) args[input.param] = request.state.slots[input.slot] ?? null;
  const result = await options.caller.callTool(server, name, args);
  if (result.isError)
    throw mcpError(
      'MCP_TOOL_FAILED',
      `Tool '${name}' of MCP server '${server.name}' failed: ${errorText(result)}`,
    );
  if (isEmpty(result)) return [];
  const mapped = mapToolOutput(tool.output, result);
  if (!mapped.ok) throw mcpError('MCP_MAPPING_FAILED', `Tool '${name}': ${mapped.problem}`);
  return mapped.slots.map((slot) => eventEffect({ event: 'slot', name: slot.name, value: slot.value }));
}

function toolStepOf(request: ActionRequest): { name: string; tool: ToolCall } {
  const flowId = request.metadata?.['active_flow'];
  const stepId = request.metadata?.['step_id'];
  const step =
    typeof flowId === 'string' && typeof stepId === 'string'
      ? request.engine.flows.step(flowId, stepId)
      : undefined;
  if (step?.kind !== 'call' || !step.tool)
    throw mcpError('MCP_SERVER_UNKNOWN', `${MCP_TOOL_ACTION} ran outside a tool call step.`);
  return { name: step.call, tool: step.tool };
}

/** Rasa: an answer without content and without structured content sets nothing, and the flow goes on */
function isEmpty(result: ToolResult): boolean {
  const structured = result.structuredContent;
  const noStructured =
    structured === undefined ||
    structured === null ||
    (typeof structured === 'object' && Object.keys(structured).length === 0);
  return result.content.length === 0 && noStructured;
}

const MAX_ERROR_TEXT = 500;

function errorText(result: ToolResult): string {
  const texts = result.content
    .map((part) => (part as { text?: unknown }).text)
    .filter((text): text is string => typeof text === 'string');
  const text = texts.join(' ').trim() || 'no reason given';
  return text.length > MAX_ERROR_TEXT ? `${text.slice(0, MAX_ERROR_TEXT)}…` : text;
}
