import type { Assistant } from '../core/assistant.js';
import { nluPoliciesAnswer } from '../core/coexistence.js';
import { nluSlotEvents } from '../core/dialogue/extract-slots.js';
import type { NluPolicies, NluPolicyPrediction } from '../core/dialogue/nlu-policies.js';
import type { TrackerState } from '../core/events/tracker-state.js';
import type { Event, ParseData, UnstampedEvent } from '../core/events/types.js';

/**
 * The NLU-based side of a coexistence assistant, as the Agent runs it: whether it answers now (Rasa's
 * routing slot), the slots it fills from a message, and its policies' next action.
 */
export class NluDialogue {
  private readonly policies: NluPolicies | undefined;
  private readonly assistant: Assistant;

  constructor(assistant: Assistant, policies: NluPolicies | undefined) {
    this.assistant = assistant;
    this.policies = policies;
  }

  answers(state: TrackerState): boolean {
    return this.policies !== undefined && nluPoliciesAnswer(this.assistant.domain, state.slots);
  }

  /** Rasa's action_extract_slots for the NLU side, after a message routed there. */
  slotEvents(parseData: ParseData, state: TrackerState): UnstampedEvent[] {
    if (!this.answers(state)) return [];
    const { domain, flows } = this.assistant;
    return nluSlotEvents(parseData, { domain, flows, activeLoop: state.activeLoop }, state.slots);
  }

  predict(events: readonly Event[], state: TrackerState): NluPolicyPrediction {
    if (!this.policies) throw new Error('no NLU-based policies are configured');
    return this.policies.predict(events, state.sharedSlots);
  }
}
