import type { FlowList } from '../flows/flow-list.js';
import type { Frame, PatternFrame, Stack } from './frames.js';
import { isUserFrame } from './frames.js';
import { patternFrame, topUserFrame } from './operations.js';

export const CANCEL_PATTERN = 'pattern_cancel_flow';

/**
 * The frames a cancellation winds down: from the top of the stack down to and including the first user
 * frame that was not reached through `call` (cancelling a called flow cancels its caller too).
 */
export function framesToCancel(stack: Stack): Frame[] {
  const frames: Frame[] = [];
  for (let index = stack.length - 1; index >= 0; index -= 1) {
    const frame = stack[index] as Frame;
    frames.push(frame);
    if (isUserFrame(frame) && frame.frame_type !== 'call') break;
  }
  return frames;
}

/** A pattern_cancel_flow frame for the active user flow, or undefined when no user flow is active. */
export function cancelFrame(stack: Stack, flows: FlowList, frameId: string): PatternFrame | undefined {
  const active = topUserFrame(stack, { includeCallFrames: true });
  if (!active) return undefined;
  return patternFrame({
    frameId,
    patternId: CANCEL_PATTERN,
    context: {
      canceled_name: flows.get(active.flow_id)?.name ?? active.flow_id,
      canceled_frames: framesToCancel(stack).map((frame) => frame.frame_id),
    },
  });
}
