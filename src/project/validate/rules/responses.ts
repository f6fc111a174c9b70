import { isBuiltInSlot } from '../../../core/domain/built-in-slots.js';
import type { ResponseTemplate, ResponseVariation } from '../../../core/domain/types.js';
import type { RuleContext, ValidationRule } from '../rule.js';

// Python str.format fields: `{name}` but not `{{` escapes or `{0}` positional fields.
const FORMAT_FIELD = /(?<!\{)\{([A-Za-z_][A-Za-z0-9_]*)\}(?!\})/g;

const CONTENT_KEYS = ['text', 'custom', 'image', 'buttons', 'attachment', 'elements', 'quick_replies'];

/** Every response variation sends something, and `{slot}` placeholders name slots. */
export const responsesRule: ValidationRule = {
  name: 'responses',
  check(context) {
    for (const response of context.assistant.domain.responses.values()) {
      if (response.isDefault) continue;
      response.variations.forEach((variation, index) => checkVariation(context, response, variation, index));
    }
  },
};

function checkVariation(
  context: RuleContext,
  response: ResponseTemplate,
  variation: ResponseVariation,
  index: number,
): void {
  const where = variation.source ?? response.source;
  // a variation whose `text:` is misspelt was reported by the schema check, as that key
  const misspelt = context.isMisspelt(where?.file, ['responses', response.name, index], ...CONTENT_KEYS);
  const sendsSomething =
    (variation.text !== undefined && variation.text !== '') ||
    variation.buttons.length > 0 ||
    variation.image !== undefined ||
    variation.custom !== undefined ||
    variation.attachment !== undefined ||
    variation.elements !== undefined ||
    variation.quickReplies !== undefined;
  if (!sendsSomething && !misspelt) {
    context.report(
      'RESPONSE_EMPTY',
      where,
      `A variation of '${response.name}' has no text, buttons, image or custom payload.`,
    );
  }
  if (variation.text === undefined || variation.metadata['template'] === 'jinja') return;
  const missing = new Set<string>();
  for (const match of variation.text.matchAll(FORMAT_FIELD)) {
    const name = match[1] ?? '';
    if (!context.assistant.domain.slots.has(name) && !isBuiltInSlot(name)) missing.add(name);
  }
  for (const name of missing) {
    context.report(
      'RESPONSE_UNKNOWN_SLOT',
      where,
      `Response '${response.name}' interpolates '{${name}}', which is no slot.`,
    );
  }
}
