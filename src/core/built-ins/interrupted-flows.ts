import { interruptedFlows } from '../executor/flow-end.js';
import type { Frame, Stack, UserFlowFrame } from '../stack/frames.js';
import { moveFramesToTop, patternFrame, push, topFrame } from '../stack/operations.js';
import { stackEffect } from './stack-effect.js';
import type { ActionEffect, BuiltInAction } from './types.js';
import { eventEffect } from './types.js';

/**
 * action_continue_interrupted_flow: brings the flow the user chose (or the only one) back to the top,
 * just under the continue pattern, and says so with `flow_resumed`.
 */
export const actionContinueInterruptedFlow: BuiltInAction = (state, context) => {
  const pattern = topFrame(state.stack);
  if (!pattern) return [];
  const below = state.stack.slice(0, -1);
  const chosen = chooseFlow(
    below,
    state.slots['interrupted_flow_to_continue'],
    (id) => context.flows.get(id)?.name ?? id,
  );
  if (!chosen) return [];
  const moved = push(moveFramesToTop(below, framesFrom(below, chosen)), pattern);
  return [
    ...stackEffect(state.stack, moved),
    eventEffect({ event: 'flow_resumed', flow_id: chosen.flow_id, step_id: chosen.step_id }),
  ];
};

/** action_cancel_interrupted_flows: the user does not want to go back; cancel every interrupted flow. */
export const actionCancelInterruptedFlows: BuiltInAction = (state, context) => {
  const effects: ActionEffect[] = [];
  let stack = state.stack;
  for (const frame of interruptedFlows(state.stack.slice(0, -1))) {
    // The flow's own frames go too (its pending question), from its frame up to the next user flow.
    const frames = framesFrom(state.stack.slice(0, -1), frame);
    const cancel = patternFrame({
      frameId: context.newFrameId(),
      patternId: 'pattern_cancel_flow',
      context: {
        canceled_name: context.flows.get(frame.flow_id)?.name ?? frame.flow_id,
        canceled_frames: [...frames],
      },
    });
    effects.push(eventEffect({ event: 'flow_cancelled', flow_id: frame.flow_id, step_id: frame.step_id }));
    stack = push(stack, cancel);
  }
  return [...effects, ...stackEffect(state.stack, stack)];
};

function chooseFlow(
  stack: Stack,
  choice: unknown,
  nameOf: (id: string) => string,
): UserFlowFrame | undefined {
  const candidates = interruptedFlows(stack);
  if (typeof choice !== 'string') return candidates[0];
  const wanted = choice.trim().toLowerCase();
  return (
    candidates.find(
      (frame) => frame.flow_id.toLowerCase() === wanted || nameOf(frame.flow_id).toLowerCase() === wanted,
    ) ?? candidates[0]
  );
}

function framesFrom(stack: Stack, frame: UserFlowFrame): Set<string> {
  const ids = new Set<string>();
  for (const [offset, candidate] of stack.slice(stack.indexOf(frame)).entries()) {
    if (offset > 0 && startsAnotherFlow(candidate)) break;
    ids.add(candidate.frame_id);
  }
  return ids;
}

/** A user flow of its own; a flow it called or linked to (and any pattern) belongs to the frame below. */
function startsAnotherFlow(frame: Frame): boolean {
  return frame.type === 'flow' && frame.frame_type !== 'call' && frame.frame_type !== 'link';
}
