import type { ValidationRule } from '../rule.js';

/** `persisted_slots` lists slots the flow itself collects or sets, and replaces `reset_after_flow_ends`. */
export const persistedSlotsRule: ValidationRule = {
  name: 'persisted-slots',
  check(context) {
    for (const flow of context.projectFlows) {
      if (flow.persistedSlots.length === 0) continue;
      const owned = new Set<string>();
      for (const step of flow.steps) {
        if (step.kind === 'collect') owned.add(step.collect);
        if (step.kind === 'set_slots') step.slots.forEach((slot) => owned.add(slot.name));
        if (step.kind === 'collect' && !step.resetAfterFlowEnds) {
          context.reportStep(
            'PERSISTED_SLOTS_WITH_RESET',
            flow,
            step,
            `Flow '${flow.id}' uses persisted_slots and 'reset_after_flow_ends' on '${step.collect}'.`,
          );
        }
      }
      for (const slot of flow.persistedSlots.filter((name) => !owned.has(name))) {
        context.report(
          'PERSISTED_SLOT_NOT_IN_FLOW',
          flow.source,
          `Flow '${flow.id}' persists '${slot}' but never collects or sets it.`,
          { flowId: flow.id },
        );
      }
    }
  },
};
