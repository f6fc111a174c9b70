import { isBuiltInSlot, RESERVED_SLOT } from '../../../core/domain/built-in-slots.js';
import { coerceSlotValue } from '../../../core/domain/slot-values.js';
import type { ValidationRule } from '../rule.js';

/** set_slots steps set declared (or Rasa's built-in), non-list slots to values of their type. */
export const setSlotsStepsRule: ValidationRule = {
  name: 'set-slots-steps',
  check(context) {
    for (const { flow, step } of context.projectSteps()) {
      if (step.kind !== 'set_slots') continue;
      for (const { name, value } of step.slots) {
        const slot = context.assistant.domain.slots.get(name);
        if (name === RESERVED_SLOT) {
          context.reportStep(
            'STEP_RESERVED_SLOT',
            flow,
            step,
            `Flow '${flow.id}' sets '${name}', a slot Rasa reserves for its own use.`,
          );
        } else if (!slot && isBuiltInSlot(name)) {
          continue;
        } else if (!slot) {
          context.reportStep(
            'SET_SLOTS_UNKNOWN_SLOT',
            flow,
            step,
            `Flow '${flow.id}' sets '${name}', which the domain does not declare.`,
          );
        } else if (slot.type === 'list') {
          context.reportStep(
            'SET_SLOTS_LIST_SLOT',
            flow,
            step,
            `Flow '${flow.id}' sets the list slot '${name}'.`,
          );
        } else if (!coerceSlotValue(slot, value).ok) {
          context.reportStep(
            'SET_SLOTS_BAD_VALUE',
            flow,
            step,
            `Flow '${flow.id}' sets the ${slot.type} slot '${name}' to ${JSON.stringify(value)}.`,
          );
        }
      }
    }
  },
};
