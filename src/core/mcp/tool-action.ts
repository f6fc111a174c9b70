/**
 * The action a tool call step predicts. Rasa calls MCP tools inside its flow policy; Parley's core does
 * no I/O, so the step pauses on this action and the runtime's MCP tool action makes the call, setting
 * the mapped slots or failing into pattern_internal_error (the flow is not cancelled, as in Rasa).
 */
export const MCP_TOOL_ACTION = 'action_call_mcp_tool';

/** The template a `mapping.output` expression is evaluated in: its value as JSON (nunjucks' `dump`). */
export function toolOutputTemplate(expression: string): string {
  return `{{ (${expression}) | dump }}`;
}

/** `{{ }}` and `{% %}` would end the expression early: Rasa's values are bare expressions */
export function hasTemplateDelimiters(expression: string): boolean {
  return /\{\{|\}\}|\{%|%\}/.test(expression);
}
