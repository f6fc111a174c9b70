import { stepsWithCalls } from '../../../core/executor/slot-reset.js';
import type { ValidationRule } from '../rule.js';

/**
 * `persisted_slots` lists slots the flow collects or sets, in its own steps or in the flows it calls
 * (transitively, as Rasa resolves `call` steps), and replaces `reset_after_flow_ends`.
 */
export const persistedSlotsRule: ValidationRule = {
  name: 'persisted-slots',
  check(context) {
    for (const flow of context.projectFlows) {
      if (flow.persistedSlots.length === 0) continue;
      for (const step of flow.steps) {
        if (step.kind === 'collect' && !step.resetAfterFlowEnds) {
          context.reportStep(
            'PERSISTED_SLOTS_WITH_RESET',
            flow,
            step,
            `Flow '${flow.id}' uses persisted_slots and 'reset_after_flow_ends' on '${step.collect}'.`,
          );
        }
      }
      const owned = new Set<string>();
      for (const step of stepsWithCalls(context.assistant.flows, flow)) {
        if (step.kind === 'collect') owned.add(step.collect);
        if (step.kind === 'set_slots') step.slots.forEach((slot) => owned.add(slot.name));
      }
      for (const slot of flow.persistedSlots.filter((name) => !owned.has(name))) {
        context.report(
          'PERSISTED_SLOT_NOT_IN_FLOW',
          flow.source,
          `Flow '${flow.id}' persists '${slot}' but never collects or sets it, nor does a flow it calls.`,
          { flowId: flow.id },
        );
      }
    }
  },
};
