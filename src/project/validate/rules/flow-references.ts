import type { Flow } from '../../../core/flows/types.js';
import { isPatternId } from '../../../core/flows/types.js';
import type { RuleContext, ValidationRule } from '../rule.js';

const LINKABLE_PATTERNS = ['pattern_human_handoff'];
const LINKABLE_FROM_PATTERNS = ['pattern_human_handoff', 'pattern_chitchat', 'pattern_customer_satisfaction'];

/** `link` and `call` name existing flows and respect Rasa's rules about patterns. */
export const flowReferencesRule: ValidationRule = {
  name: 'flow-references',
  check(context) {
    const called = new Set<string>();
    for (const { flow, step } of context.projectSteps()) {
      if (step.kind === 'link') checkLink(context, flow, step.link, step);
      if (step.kind === 'call') {
        called.add(step.call);
        checkCall(context, flow, step.call, step);
      }
    }
    for (const [name, agent] of context.assistant.subAgents) {
      if (context.assistant.flows.has(name))
        context.report(
          'SUB_AGENT_NAME_CONFLICT',
          { file: agent.file, line: 1, column: 1 },
          `The sub-agent '${name}' has the id of a flow; \`call: ${name}\` would be ambiguous.`,
        );
    }
    for (const flowId of called) {
      const flow = context.assistant.flows.get(flowId);
      const link = flow?.steps.find((step) => step.kind === 'link');
      if (flow && link && !flow.isDefault) {
        context.reportStep(
          'CALLED_FLOW_HAS_LINK',
          flow,
          link,
          `Flow '${flow.id}' is reached through 'call' but links to another flow.`,
        );
      }
    }
  },
};

type StepOf<K> = Extract<Flow['steps'][number], { kind: K }>;

function checkLink(context: RuleContext, flow: Flow, target: string, step: StepOf<'link'>): void {
  if (flow.id === 'pattern_internal_error') {
    context.reportStep(
      'LINK_FROM_INTERNAL_ERROR',
      flow,
      step,
      `pattern_internal_error may not link (it links to '${target}').`,
    );
    return;
  }
  if (isPatternId(target)) {
    const allowed = isPatternId(flow.id) ? LINKABLE_FROM_PATTERNS : LINKABLE_PATTERNS;
    if (!allowed.includes(target)) {
      context.reportStep(
        'LINK_TO_PATTERN',
        flow,
        step,
        `Flow '${flow.id}' links to the pattern '${target}'.`,
      );
      return;
    }
  }
  if (!context.assistant.flows.has(target)) {
    context.reportStep(
      'LINK_UNKNOWN_FLOW',
      flow,
      step,
      `Flow '${flow.id}' links to '${target}', which is no flow.`,
    );
  }
}

function checkCall(context: RuleContext, flow: Flow, target: string, step: StepOf<'call'>): void {
  if (isPatternId(flow.id)) {
    context.reportStep(
      'CALL_FROM_PATTERN',
      flow,
      step,
      `The pattern '${flow.id}' calls '${target}'; patterns cannot call.`,
    );
  }
  if (isPatternId(target)) {
    context.reportStep('CALL_TO_PATTERN', flow, step, `Flow '${flow.id}' calls the pattern '${target}'.`);
  } else if (step.callee === 'agent' && context.assistant.subAgents.has(target)) {
    if (step.exitIf)
      context.reportStep(
        'SUB_AGENT_EXIT_IF_UNSUPPORTED',
        flow,
        step,
        `Flow '${flow.id}' calls the sub-agent '${target}' with exit_if, which Rasa runs as a ReAct task agent; Parley calls A2A agents until their task ends.`,
      );
  } else if (step.callee !== 'mcp_tool' && !context.assistant.flows.has(target)) {
    // a tool call is checked by the mcp-tool-calls rule
    context.reportStep('CALL_UNKNOWN_FLOW', flow, step, unknownCallMessage(flow.id, step));
  }
}

function unknownCallMessage(flowId: string, step: StepOf<'call'>): string {
  if (step.callee === undefined)
    return `Flow '${flowId}' calls '${step.call}', which is no flow and no sub-agent of sub_agents/.`;
  return `Flow '${flowId}' calls the sub-agent '${step.call}', which sub_agents/ does not define.`;
}
