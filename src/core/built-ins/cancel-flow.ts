import { CONTINUE_STEP_PREFIX, END_STEP } from '../flows/types.js';
import { contextValue, topFrame, withStepId } from '../stack/operations.js';
import { stackEffect } from './stack-effect.js';
import type { BuiltInAction } from './types.js';

/** action_cancel_flow: winds the cancelled frames down (NEXT:END), so they end once the pattern is done. */
export const actionCancelFlow: BuiltInAction = (state) => {
  const canceled = contextValue(topFrame(state.stack), 'canceled_frames');
  const ids = new Set(Array.isArray(canceled) ? (canceled as string[]) : []);
  const after = state.stack.map((frame) =>
    ids.has(frame.frame_id) ? withStepId(frame, `${CONTINUE_STEP_PREFIX}${END_STEP}`) : frame,
  );
  return stackEffect(state.stack, after);
};

/** action_clean_stack: winds every frame down (used after the assistant changed under a conversation). */
export const actionCleanStack: BuiltInAction = (state) => {
  const top = topFrame(state.stack);
  const after = state.stack.map((frame) =>
    frame === top ? frame : withStepId(frame, `${CONTINUE_STEP_PREFIX}${END_STEP}`),
  );
  return stackEffect(state.stack, after);
};
