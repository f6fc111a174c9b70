import { CONTINUE_STEP_PREFIX, END_STEP } from '../flows/types.js';
import type { Frame, Stack } from '../stack/frames.js';
import { isUserFrame } from '../stack/frames.js';
import { latestStackAt } from '../events/tracker-state.js';
import type { TrackerState } from '../events/tracker-state.js';
import { topFrame, topUserFrameIndex, withStepId } from '../stack/operations.js';
import { stackEffect } from './stack-effect.js';
import type { ActionEffect, BuiltInAction } from './types.js';
import { eventEffect } from './types.js';
import { isRecord } from '../commands/parse-helpers.js';
import type { UnstampedEvent } from '../events/types.js';

const END = `${CONTINUE_STEP_PREFIX}${END_STEP}`;

/**
 * action_correct_flow_slot: rewinds the corrected flow to the collect step that first asked for a
 * corrected slot (`NEXT:<step>`, so it runs again and the steps after it follow), winds down what was
 * running above it, then sets the corrected values.
 */
export const actionCorrectFlowSlot: BuiltInAction = (state) => {
  const correction = topFrame(state.stack);
  if (correction?.type !== 'pattern_correction') return [];
  const effects: ActionEffect[] = [];
  const flowId = correction['reset_flow_id'];
  const stepId = correction['reset_step_id'];
  if (typeof flowId === 'string' && typeof stepId === 'string') {
    effects.push(...stackEffect(state.stack, rewind(state, correction, flowId, stepId)));
  }
  const corrected = correction['corrected_slots'];
  if (typeof corrected === 'object' && corrected !== null) {
    for (const [name, slot] of Object.entries(corrected))
      effects.push(eventEffect(correctedSlotSet(name, slot)));
  }
  return effects;
};

/**
 * Rasa's frame holds `{value, filled_by}` per slot, and the SlotSet keeps who filled the corrected value.
 * A frame in the older shape (`{slot: value}`, as stacks stored before hold it) gives the value alone,
 * which was always the LLM's.
 */
function correctedSlotSet(name: string, slot: unknown): UnstampedEvent {
  if (!isRecord(slot) || !('value' in slot))
    return { event: 'slot', name, value: slot, metadata: { filled_by: 'LLM' } };
  const filledBy = slot['filled_by'];
  return {
    event: 'slot',
    name,
    value: slot['value'],
    ...(typeof filledBy === 'string' ? { metadata: { filled_by: filledBy } } : {}),
  };
}

/**
 * Rebuilds the stack from the most recent past stack whose top was the collect step to go back to (so a
 * collect inside a called flow that has already ended comes back with its caller): the current frames
 * below the active flow, the past frames from the active flow up (the top one re-running the collect),
 * the current frames above the active flow wound down, and the correction pattern on top.
 */
function rewind(state: TrackerState, correction: Frame, flowId: string, stepId: string): Stack {
  const current = state.stack;
  const past = latestStackAt(state, flowId, stepId);
  if (!past) return rewindInPlace(current, correction, flowId, stepId);
  const pastTarget = topUserFrameIndex(past);
  const target = past[pastTarget];
  if (!target) return rewindInPlace(current, correction, flowId, stepId);
  const currentTarget = current.findIndex((frame) => frame.frame_id === target.frame_id);
  const below = currentTarget === -1 ? past.slice(0, pastTarget) : current.slice(0, currentTarget);
  const restored = past
    .slice(pastTarget)
    .map((frame, index, frames) =>
      index === frames.length - 1 ? withStepId(frame, `${CONTINUE_STEP_PREFIX}${stepId}`) : frame,
    );
  const restoredIds = new Set(restored.map((frame) => frame.frame_id));
  // what is neither kept below nor restored (nor the correction itself) is wound down
  const above = current
    .filter((frame) => frame !== correction && !restoredIds.has(frame.frame_id) && !below.includes(frame))
    .map((frame) => withStepId(frame, END));
  return [...below, ...restored, ...above, correction];
}

/** Without a past stack: the flow's own frame goes back to the step; what runs above it winds down. */
function rewindInPlace(stack: Stack, correction: Frame, flowId: string, stepId: string): Stack {
  const targetIndex = findLastIndex(stack, (frame) => isUserFrame(frame) && frame.flow_id === flowId);
  if (targetIndex === -1) return stack;
  const below = stack.slice(0, targetIndex);
  const target = withStepId(stack[targetIndex] as Frame, `${CONTINUE_STEP_PREFIX}${stepId}`);
  const above = stack
    .slice(targetIndex + 1)
    .filter((frame) => frame !== correction)
    .map((frame) => withStepId(frame, END));
  return [...below, target, ...above, correction];
}

function findLastIndex(stack: Stack, predicate: (frame: Frame) => boolean): number {
  for (let index = stack.length - 1; index >= 0; index -= 1)
    if (predicate(stack[index] as Frame)) return index;
  return -1;
}
