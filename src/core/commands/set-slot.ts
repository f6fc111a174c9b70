import { coerceSlotValue } from '../domain/slot-values.js';
import { pyEquals } from '../flows/conditions/python-values.js';
import { fillableSlots } from './fillable-slots.js';
import type { CommandDefinition, SlotExtractor } from './types.js';

const EXTRACTORS: readonly SlotExtractor[] = ['LLM', 'NLU', 'CommandPayloadReader', 'CUSTOM'];

/** Fills a slot the conversation is asking for (values are converted to the slot type when they fit). */
export const setSlotCommand: CommandDefinition<'set slot'> = {
  name: 'set slot',
  parse(raw) {
    if (typeof raw['name'] !== 'string') return undefined;
    const extractor = EXTRACTORS.find((candidate) => candidate === raw['extractor']);
    return {
      command: 'set slot',
      name: raw['name'],
      value: raw['value'] ?? null,
      ...(extractor ? { extractor } : {}),
    };
  },
  apply(command, scope) {
    const { draft, context } = scope;
    const slot = context.domain.slots.get(command.name);
    if (!slot) return;
    if (!fillableSlots(draft.stack, context, scope.startedFlows).has(command.name)) return;
    const coerced = coerceSlotValue(slot, command.value);
    const value = coerced.ok ? coerced.value : command.value;
    // Rasa's has_same_coerced_value (Python ==): setting a slot to what it holds, null included, is no event
    if (pyEquals(draft.slots[command.name] ?? null, value)) return;
    draft.setSlot(command.name, value, { filled_by: command.extractor ?? 'LLM' });
  },
};
