import type { ValidationRule } from '../rule.js';

/** NLU examples are not repeated, and never listed under two intents. */
export const nluDataRule: ValidationRule = {
  name: 'nlu-data',
  check(context) {
    const owner = new Map<string, string>();
    for (const { intent, examples } of context.assistant.nlu.intents) {
      for (const example of examples) {
        const key = example.text.trim().toLowerCase();
        const earlier = owner.get(key);
        if (earlier === undefined) owner.set(key, intent);
        else if (earlier === intent) {
          context.report(
            'NLU_DUPLICATE_EXAMPLE',
            example.source,
            `'${example.text}' appears twice under '${intent}'.`,
          );
        } else {
          context.report(
            'NLU_CONFLICTING_EXAMPLE',
            example.source,
            `'${example.text}' is listed under both '${earlier}' and '${intent}'.`,
          );
        }
      }
    }
  },
};
