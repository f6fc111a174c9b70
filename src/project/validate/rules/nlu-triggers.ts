import { DEFAULT_INTENTS } from '../../../core/domain/types.js';
import type { ValidationRule } from '../rule.js';

/** An intent triggers at most one flow, and it is an intent the assistant knows. */
export const nluTriggersRule: ValidationRule = {
  name: 'nlu-triggers',
  check(context) {
    const { domain, nlu } = context.assistant;
    const known = new Set([
      ...domain.intents.keys(),
      ...nlu.intents.map((entry) => entry.intent),
      ...DEFAULT_INTENTS,
    ]);
    const owner = new Map<string, string>();
    for (const flow of context.assistant.flows.flows) {
      for (const trigger of flow.nluTriggers) {
        const earlier = owner.get(trigger.intent);
        if (earlier !== undefined && !flow.isDefault) {
          context.report(
            'NLU_TRIGGER_DUPLICATE_INTENT',
            flow.source,
            `Intent '${trigger.intent}' triggers both '${earlier}' and '${flow.id}'.`,
            { flowId: flow.id },
          );
        }
        owner.set(trigger.intent, earlier ?? flow.id);
        if (!known.has(trigger.intent) && !flow.isDefault) {
          context.report(
            'NLU_TRIGGER_UNKNOWN_INTENT',
            flow.source,
            `Flow '${flow.id}' is triggered by the unknown intent '${trigger.intent}'.`,
            { flowId: flow.id },
          );
        }
      }
    }
  },
};
