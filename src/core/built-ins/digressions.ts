import { joinOptions } from '../executor/flow-end.js';
import type { Frame, Stack } from '../stack/frames.js';
import { isUserFrame } from '../stack/frames.js';
import { patternFrame, push, topFrame, userFrame } from '../stack/operations.js';
import { stackEffect } from './stack-effect.js';
import type { ActionEffect, BuiltInAction } from './types.js';
import { eventEffect, optionalUtterEffect } from './types.js';

const HANDLE_DIGRESSIONS = 'pattern_handle_digressions';
const CONTINUE_INTERRUPTED = 'pattern_continue_interrupted';

/**
 * action_block_digression (Rasa's pattern_handle_digressions, an experimental pattern Parley does not
 * push itself): the flow that tried to interrupt is put at the bottom of the stack, with
 * pattern_continue_interrupted above it to offer it once the current flows are done; then
 * `utter_block_digressions`. A flow already on the stack is not added twice.
 */
export const actionBlockDigression: BuiltInAction = (state, context) => {
  const frame = topFrame(state.stack);
  if (frame?.type !== HANDLE_DIGRESSIONS) return [];
  const blocked = String(frame['interrupting_flow_id'] ?? '');
  const effects: ActionEffect[] = [];
  if (!userFlowIds(state.stack).has(blocked)) {
    const name = context.flows.get(blocked)?.name ?? blocked;
    const offer = patternFrame({
      frameId: context.newFrameId(),
      patternId: CONTINUE_INTERRUPTED,
      context: {
        previous_flow_name: name,
        interrupted_flow_names: [name],
        interrupted_flow_ids: [blocked],
        interrupted_flow_options: joinOptions([name]),
        multiple_flows_interrupted: false,
      },
    });
    const flow = userFrame({ frameId: context.newFrameId(), flowId: blocked, frameType: 'regular' });
    effects.push(...stackEffect(state.stack, [flow, offer, ...state.stack]));
  }
  return [...effects, optionalUtterEffect('utter_block_digressions')];
};

/**
 * action_continue_digression: the interrupting flow starts on top as an interruption of the flow the
 * pattern recorded (`flow_interrupted`), leaving any earlier frame of it; then
 * `utter_continue_interruption`.
 */
export const actionContinueDigression: BuiltInAction = (state, context) => {
  const frame = topFrame(state.stack);
  if (frame?.type !== HANDLE_DIGRESSIONS) return [];
  const interrupting = String(frame['interrupting_flow_id'] ?? '');
  const kept = state.stack.filter(
    (candidate) => !(isUserFrame(candidate) && candidate.flow_id === interrupting),
  );
  const started = userFrame({ frameId: context.newFrameId(), flowId: interrupting, frameType: 'interrupt' });
  return [
    eventEffect({
      event: 'flow_interrupted',
      flow_id: String(frame['interrupted_flow_id'] ?? ''),
      step_id: String(frame['interrupted_step_id'] ?? ''),
    }),
    ...stackEffect(state.stack, push(kept, started)),
    optionalUtterEffect('utter_continue_interruption'),
  ];
};

function userFlowIds(stack: Stack): Set<string> {
  return new Set(stack.filter((frame: Frame) => isUserFrame(frame)).map((frame) => frame.flow_id));
}
