import type { Flow } from '../../../core/flows/types.js';
import type { RuleContext, ValidationRule } from '../rule.js';

/** Flow ids, names and descriptions are unique, and every flow has a description (the schema checks steps). */
export const flowIdentityRule: ValidationRule = {
  name: 'flow-identity',
  check(context) {
    const all = context.assistant.flows.flows;
    // A flow that reuses an id is reported once: its (default) name is not compared again.
    const redefined = reportDuplicates(context, all, (flow) => flow.id, 'FLOW_DUPLICATE_ID', 'id');
    const distinct = all.filter((flow) => !redefined.has(flow));
    reportDuplicates(
      context,
      distinct,
      (flow) => flow.name.trim().toLowerCase(),
      'FLOW_DUPLICATE_NAME',
      'name',
    );
    reportDuplicates(
      context,
      distinct.filter((flow) => flow.description.trim() !== ''),
      (flow) => normaliseDescription(flow.description),
      'FLOW_DUPLICATE_DESCRIPTION',
      'description',
    );
    for (const flow of context.projectFlows) {
      const misspelt = context.isMisspelt(flow.source?.file, ['flows', flow.id], 'description');
      if (flow.description.trim() === '' && !misspelt) {
        context.report('FLOW_MISSING_DESCRIPTION', flow.source, `Flow '${flow.id}' has no description.`, {
          flowId: flow.id,
        });
      }
    }
  },
};

/** Reports each flow whose key an earlier flow already has, and returns those flows. */
function reportDuplicates(
  context: RuleContext,
  flows: readonly Flow[],
  keyOf: (flow: Flow) => string,
  code: 'FLOW_DUPLICATE_ID' | 'FLOW_DUPLICATE_NAME' | 'FLOW_DUPLICATE_DESCRIPTION',
  what: string,
): Set<Flow> {
  const first = new Map<string, Flow>();
  const duplicates = new Set<Flow>();
  for (const flow of flows) {
    const key = keyOf(flow);
    const earlier = first.get(key);
    if (!earlier) {
      first.set(key, flow);
      continue;
    }
    duplicates.add(flow);
    if (flow.isDefault) continue;
    const where = earlier.source ? ` (first defined at ${earlier.source.file}:${earlier.source.line})` : '';
    context.report(
      code,
      flow.source,
      `Flow '${flow.id}' has the same ${what} as flow '${earlier.id}'${where}.`,
      { flowId: flow.id },
    );
  }
  return duplicates;
}

/** Rasa compares descriptions with punctuation and case ignored. */
function normaliseDescription(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s]/gu, '')
    .replace(/\s+/g, ' ')
    .trim();
}
