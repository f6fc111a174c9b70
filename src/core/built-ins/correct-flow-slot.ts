import { CONTINUE_STEP_PREFIX, END_STEP } from '../flows/types.js';
import type { Frame, Stack } from '../stack/frames.js';
import { isUserFrame } from '../stack/frames.js';
import { topFrame, withStepId } from '../stack/operations.js';
import { stackEffect } from './stack-effect.js';
import type { ActionEffect, BuiltInAction } from './types.js';
import { eventEffect } from './types.js';

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
    effects.push(...stackEffect(state.stack, rewind(state.stack, correction, flowId, stepId)));
  }
  const corrected = correction['corrected_slots'];
  if (typeof corrected === 'object' && corrected !== null) {
    for (const [name, value] of Object.entries(corrected)) {
      effects.push(eventEffect({ event: 'slot', name, value, metadata: { filled_by: 'LLM' } }));
    }
  }
  return effects;
};

function rewind(stack: Stack, correction: Frame, flowId: string, stepId: string): Stack {
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
