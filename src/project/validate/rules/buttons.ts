import {
  MAX_SLOTS_PER_PAYLOAD,
  exceedsSlotLimit,
  parseDirectPayload,
} from '../../../core/domain/direct-payload.js';
import { DEFAULT_INTENTS } from '../../../core/domain/types.js';
import type { Button } from '../../../core/domain/types.js';
import type { RuleContext, ValidationRule } from '../rule.js';

/** Button payloads parse, and `/SetSlots(...)` and `/intent` payloads name things the assistant knows. */
export const buttonsRule: ValidationRule = {
  name: 'buttons',
  check(context) {
    for (const response of context.assistant.domain.responses.values()) {
      if (response.isDefault) continue;
      for (const variation of response.variations) {
        const jinja = variation.metadata['template'] === 'jinja';
        for (const button of variation.buttons) checkButton(context, response.name, button, jinja);
      }
    }
  },
};

/**
 * The payload as the button sends it. Rasa formats response strings with Python's str.format, so `{{`
 * and `}}` (its documented escape for JSON, `/inform{{"plan":"basic"}}`) are sent as `{` and `}`; a
 * Jinja-templated response is rendered by Jinja instead and left as written here.
 */
export function sentPayload(payload: string, jinja: boolean): string {
  return jinja ? payload : payload.replace(/\{\{|\}\}/g, (pair) => pair.charAt(0));
}

function checkButton(context: RuleContext, responseName: string, button: Button, jinja: boolean): void {
  const where = button.source;
  const label = `Button '${button.title}' of '${responseName}'`;
  if (button.payload.trim() === '') {
    context.report('BUTTON_PAYLOAD_EMPTY', where, `${label} has an empty payload.`);
    return;
  }
  const sent = sentPayload(button.payload, jinja);
  const payload = parseDirectPayload(sent);
  if (payload === undefined) {
    context.report('BUTTON_FREE_FORM_PAYLOAD', where, `${label} sends the free text '${button.payload}'.`);
    return;
  }
  switch (payload.kind) {
    case 'invalid':
      context.report('BUTTON_PAYLOAD_INVALID', where, `${label}: ${payload.reason}.`);
      return;
    case 'set_slots':
      if (exceedsSlotLimit(sent)) {
        context.report(
          'BUTTON_PAYLOAD_TOO_MANY_SLOTS',
          where,
          `${label} has more than ${MAX_SLOTS_PER_PAYLOAD} '=' signs; Rasa then sets none of its slots.`,
        );
      }
      for (const { name } of payload.slots) {
        if (!context.assistant.domain.slots.has(name)) {
          context.report(
            'BUTTON_UNKNOWN_SLOT',
            where,
            `${label} sets '${name}', which the domain does not declare.`,
          );
        }
      }
      return;
    case 'intent':
      if (!isKnownIntent(context, payload.intent)) {
        context.report(
          'BUTTON_UNKNOWN_INTENT',
          where,
          `${label} sends the unknown intent '${payload.intent}'.`,
        );
      }
  }
}

function isKnownIntent(context: RuleContext, intent: string): boolean {
  const { domain, nlu, flows } = context.assistant;
  return (
    domain.intents.has(intent) ||
    DEFAULT_INTENTS.includes(intent) ||
    nlu.intents.some((entry) => entry.intent === intent) ||
    flows.flows.some((flow) => flow.nluTriggers.some((trigger) => trigger.intent === intent))
  );
}
