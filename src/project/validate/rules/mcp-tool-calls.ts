import nunjucks from 'nunjucks';
import type { Flow, Step } from '../../../core/flows/types.js';
import { mcpServersOf } from '../../../core/mcp/servers.js';
import { hasTemplateDelimiters, toolOutputTemplate } from '../../../core/mcp/tool-action.js';
import { lazyPositionOf } from '../../load/yaml-file.js';
import type { RuleContext, ValidationRule } from '../rule.js';

type CallStep = Extract<Step, { kind: 'call' }>;

/**
 * MCP tool calls (`call: <tool>` with `mcp_server` and `mapping`) name a server of endpoints.yml and
 * slots of the domain, and their output values compile; the servers themselves are usable. The tool's
 * existence is only known when it is called, as in Rasa.
 */
export const mcpToolCallsRule: ValidationRule = {
  name: 'mcp-tool-calls',
  check(context) {
    const servers = checkServers(context);
    for (const { flow, step } of context.projectSteps()) {
      if (step.kind === 'call' && step.callee === 'mcp_tool') checkToolCall(context, flow, step, servers);
    }
  },
};

const ANY_VARIABLE_SET: Readonly<Record<string, string>> = new Proxy({}, { get: () => 'set' });

function checkServers(context: RuleContext): ReadonlySet<string> {
  const endpoints = context.assistant.endpoints;
  // secrets are read when the server starts, from its environment, which need not be this one's
  const read = mcpServersOf(endpoints, ANY_VARIABLE_SET);
  const names = serverNames(endpoints['mcp_servers']);
  if (read.ok) return names;
  const file = context.project.raw.endpoints?.file;
  const where = file ? lazyPositionOf(file, ['mcp_servers'], true) : undefined;
  for (const problem of read.problems)
    context.report('MCP_SERVERS_INVALID', where, `endpoints.yml: ${problem}.`);
  return names;
}

/** names of the listed servers, also of invalid ones (their problem is said once, above) */
function serverNames(entries: unknown): ReadonlySet<string> {
  if (!Array.isArray(entries)) return new Set();
  return new Set(
    entries
      .map((entry) => (entry as { name?: unknown } | null)?.name)
      .filter((name): name is string => typeof name === 'string'),
  );
}

function checkToolCall(context: RuleContext, flow: Flow, step: CallStep, servers: ReadonlySet<string>): void {
  const { tool } = step;
  if (!tool) {
    context.reportStep(
      'MCP_MAPPING_INVALID',
      flow,
      step,
      `Flow '${flow.id}' calls the tool '${step.call}' without a whole mapping (input and output lists).`,
    );
    return;
  }
  if (!servers.has(tool.server)) {
    const known =
      servers.size > 0 ? `; endpoints.yml lists ${[...servers].join(', ')}` : '; endpoints.yml lists none';
    context.reportStep(
      'MCP_SERVER_UNKNOWN',
      flow,
      step,
      `Flow '${flow.id}' calls the tool '${step.call}' on the MCP server '${tool.server}'${known}.`,
    );
  }
  const slots = [...tool.input.map((input) => input.slot), ...tool.output.map((output) => output.slot)];
  for (const slot of new Set(slots)) {
    if (!context.assistant.domain.slots.has(slot))
      context.reportStep(
        'MCP_MAPPING_UNKNOWN_SLOT',
        flow,
        step,
        `Flow '${flow.id}' maps the tool '${step.call}' to the slot '${slot}', which the domain does not define.`,
      );
  }
  for (const output of tool.output) {
    const problem = expressionProblem(output.value);
    if (problem)
      context.reportStep(
        'MCP_OUTPUT_EXPRESSION_INVALID',
        flow,
        step,
        `Flow '${flow.id}', tool '${step.call}': the value '${output.value}' for slot '${output.slot}' ${problem}.`,
      );
  }
}

const environment = new nunjucks.Environment(null, { autoescape: false });

function expressionProblem(expression: string): string | undefined {
  if (hasTemplateDelimiters(expression)) return 'is written with {{ }}; write the bare expression';
  try {
    new nunjucks.Template(toolOutputTemplate(expression), environment, undefined, true);
    return undefined;
  } catch (error) {
    const reason = error instanceof Error ? (error.message.split('\n').at(-1) ?? '').trim() : String(error);
    return `does not compile (${reason})`;
  }
}
