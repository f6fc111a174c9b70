import { coerceSlotValue } from '../../../core/domain/slot-values.js';
import type { ValidationRule } from '../rule.js';

/** set_slots steps set declared, non-list slots to values of their type. */
export const setSlotsStepsRule: ValidationRule = {
  name: 'set-slots-steps',
  check(context) {
    for (const { flow, step } of context.projectSteps()) {
      if (step.kind !== 'set_slots') continue;
      for (const { name, value } of step.slots) {
        const slot = context.assistant.domain.slots.get(name);
        if (!slot) {
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
