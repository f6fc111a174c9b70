import { coerceSlotValue } from '../../../core/domain/slot-values.js';
import type { Slot } from '../../../core/domain/types.js';
import type { RuleContext, ValidationRule } from '../rule.js';

/** Slot declarations: reserved names, categorical values, initial values and mapping references. */
export const slotsRule: ValidationRule = {
  name: 'slots',
  check(context) {
    const { domain } = context.assistant;
    for (const slot of domain.slots.values()) {
      if (slot.isDefault) continue;
      const where = slot.source;
      if (slot.name === 'dialogue_stack') {
        context.report('SLOT_RESERVED_NAME', where, `The slot name 'dialogue_stack' is reserved.`);
      }
      if (slot.type === 'categorical' && slot.values.length === 0) {
        context.report(
          'SLOT_CATEGORICAL_NO_VALUES',
          where,
          `The categorical slot '${slot.name}' declares no values.`,
        );
      }
      if (slot.initialValue !== null && !coerceSlotValue(slot, slot.initialValue).ok) {
        context.report(
          'SLOT_INITIAL_VALUE_TYPE',
          where,
          `The ${slot.type} slot '${slot.name}' has the initial value ${JSON.stringify(slot.initialValue)}.`,
        );
      }
      checkMappings(context, slot);
    }
  },
};

/** Mapping references: the entity of a from_entity mapping, the flow of an `active_flow` condition. */
function checkMappings(context: RuleContext, slot: Slot): void {
  const { domain, flows } = context.assistant;
  const where = slot.source;
  const unknownFlows = new Set<string>();
  slot.mappings.forEach((mapping, index) => {
    const path = ['slots', slot.name, 'mappings', index];
    if (mapping.type === 'from_entity' && mapping.entity === '') {
      // a misspelt `entity:` was reported by the schema check, as that key
      if (!context.isMisspelt(where?.file, path, 'entity'))
        context.report(
          'SLOT_MAPPING_UNKNOWN_ENTITY',
          where,
          `A from_entity mapping of slot '${slot.name}' names no entity.`,
          { hint: 'Add `entity: <entity name>` to the mapping.' },
        );
    } else if (mapping.type === 'from_entity' && !domain.entities.includes(mapping.entity)) {
      context.report(
        'SLOT_MAPPING_UNKNOWN_ENTITY',
        where,
        `Slot '${slot.name}' maps from the undeclared entity '${mapping.entity}'.`,
      );
    }
    for (const condition of mapping.conditions) {
      const flow = condition.activeFlow;
      if (flow !== undefined && !flows.has(flow) && !unknownFlows.has(flow)) {
        // said once per slot: its mappings share the slot's position, so a repeat would be the same line
        unknownFlows.add(flow);
        context.report(
          'SLOT_MAPPING_UNKNOWN_FLOW',
          where,
          `A mapping of slot '${slot.name}' names the unknown flow '${flow}'.`,
        );
      }
    }
  });
}
