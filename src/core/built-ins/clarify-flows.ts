import { joinOptions } from '../executor/flow-end.js';
import { replaceAt, topFrame } from '../stack/operations.js';
import { stackEffect } from './stack-effect.js';
import type { BuiltInAction } from './types.js';

/** action_clarify_flows: writes the readable "A, B or C" list into the clarification frame. */
export const actionClarifyFlows: BuiltInAction = (state) => {
  const frame = topFrame(state.stack);
  if (frame?.type !== 'pattern_clarification') return [];
  const names = Array.isArray(frame['names']) ? (frame['names'] as string[]) : [];
  const updated = { ...frame, clarification_options: joinOptions(names) };
  return stackEffect(state.stack, replaceAt(state.stack, state.stack.length - 1, updated));
};
