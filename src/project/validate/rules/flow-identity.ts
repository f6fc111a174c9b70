import type { Flow } from '../../../core/flows/types.js';
import type { RuleContext, ValidationRule } from '../rule.js';

/** Flow ids, names and descriptions are unique; every flow has a description and steps. */
export const flowIdentityRule: ValidationRule = {
  name: 'flow-identity',
  check(context) {
    const all = context.assistant.flows.flows;
    reportDuplicates(context, all, (flow) => flow.id, 'FLOW_DUPLICATE_ID', 'id');
    reportDuplicates(context, all, (flow) => flow.name.trim().toLowerCase(), 'FLOW_DUPLICATE_NAME', 'name');
    reportDuplicates(
      context,
      all.filter((flow) => flow.description.trim() !== ''),
      (flow) => normaliseDescription(flow.description),
      'FLOW_DUPLICATE_DESCRIPTION',
      'description',
    );
    for (const flow of context.projectFlows) {
      if (flow.description.trim() === '') {
        context.report('FLOW_MISSING_DESCRIPTION', flow.source, `Flow '${flow.id}' has no description.`, {
          flowId: flow.id,
        });
      }
      if (flow.steps.length === 0) {
        context.report('FLOW_EMPTY', flow.source, `Flow '${flow.id}' has no steps.`, { flowId: flow.id });
      }
    }
  },
};

function reportDuplicates(
  context: RuleContext,
  flows: readonly Flow[],
  keyOf: (flow: Flow) => string,
  code: 'FLOW_DUPLICATE_ID' | 'FLOW_DUPLICATE_NAME' | 'FLOW_DUPLICATE_DESCRIPTION',
  what: string,
): void {
  const first = new Map<string, Flow>();
  for (const flow of flows) {
    const key = keyOf(flow);
    const earlier = first.get(key);
    if (!earlier) {
      first.set(key, flow);
      continue;
    }
    if (flow.isDefault) continue;
    const where = earlier.source ? ` (first defined at ${earlier.source.file}:${earlier.source.line})` : '';
    context.report(
      code,
      flow.source,
      `Flow '${flow.id}' has the same ${what} as flow '${earlier.id}'${where}.`,
      { flowId: flow.id },
    );
  }
}

/** Rasa compares descriptions with punctuation and case ignored. */
function normaliseDescription(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s]/gu, '')
    .replace(/\s+/g, ' ')
    .trim();
}
