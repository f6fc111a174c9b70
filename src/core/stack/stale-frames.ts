import type { FlowList } from '../flows/flow-list.js';
import { CONTINUE_STEP_PREFIX, END_STEP, START_STEP } from '../flows/types.js';
import type { Frame, Stack } from './frames.js';

/**
 * The stack without frames whose flow or step the assistant no longer has (it changed under a running
 * conversation). Newer Rasa releases drop such frames too, instead of failing every later message.
 */
export function withoutStaleFrames(stack: Stack, flows: FlowList): Stack {
  const kept = stack.filter((frame) => isCurrent(frame, flows));
  return kept.length === stack.length ? stack : kept;
}

function isCurrent(frame: Frame, flows: FlowList): boolean {
  if (!flows.has(frame.flow_id)) return false;
  const step = frame.step_id.startsWith(CONTINUE_STEP_PREFIX)
    ? frame.step_id.slice(CONTINUE_STEP_PREFIX.length)
    : frame.step_id;
  return step === START_STEP || step === END_STEP || flows.step(frame.flow_id, step) !== undefined;
}
