import type { UserFlowFrame } from '../stack/frames.js';
import { isUserFrame } from '../stack/frames.js';
import { moveFramesToTop, push, topUserFrame, userFrame } from '../stack/operations.js';
import type { Frame, Stack } from '../stack/frames.js';
import type { CommandDefinition } from './types.js';

const CONTINUE_INTERRUPTED = 'pattern_continue_interrupted';

/** Starts a flow: pushes it (interrupting the active one), or resumes it when it is already on the stack. */
export const startFlowCommand: CommandDefinition<'start flow'> = {
  name: 'start flow',
  parse: (raw) =>
    typeof raw['flow'] === 'string' ? { command: 'start flow', flow: raw['flow'] } : undefined,
  apply(command, scope) {
    const { draft, context } = scope;
    if (!context.flows.has(command.flow)) return;
    let stack = withoutContinueInterrupted(draft.stack);
    const active = topUserFrame(stack, { includeCallFrames: true });
    if (active?.flow_id === command.flow) {
      draft.setStack(stack);
      return;
    }
    const existing = stack.find(
      (frame): frame is UserFlowFrame => isUserFrame(frame) && frame.flow_id === command.flow,
    );
    if (active) draft.emit({ event: 'flow_interrupted', flow_id: active.flow_id, step_id: active.step_id });
    if (existing) {
      stack = moveFramesToTop(stack, framesOfFlow(stack, existing));
      draft.setStack(stack);
      draft.emit({ event: 'flow_resumed', flow_id: existing.flow_id, step_id: existing.step_id });
      return;
    }
    const frameType = topUserFrame(scope.originalStack) ? 'interrupt' : 'regular';
    draft.setStack(
      push(stack, userFrame({ frameId: context.newFrameId(), flowId: command.flow, frameType })),
    );
  },
};

/** A resumed flow takes its frames with it: its own frame and everything above it up to the next user flow. */
function framesOfFlow(stack: Stack, frame: UserFlowFrame): Set<string> {
  const ids = new Set<string>();
  const start = stack.indexOf(frame);
  for (let index = start; index < stack.length; index += 1) {
    const candidate = stack[index] as Frame;
    const isOtherFlow =
      index > start &&
      isUserFrame(candidate) &&
      (candidate.frame_type === 'regular' || candidate.frame_type === 'interrupt');
    if (isOtherFlow) break;
    ids.add(candidate.frame_id);
  }
  return ids;
}

/** A pending "continue the interrupted flow?" (and the question it is asking) gives way to a new start. */
function withoutContinueInterrupted(stack: Stack): Stack {
  for (let index = stack.length - 1; index >= 0; index -= 1) {
    const frame = stack[index] as Frame;
    if (frame.type === CONTINUE_INTERRUPTED) return stack.slice(0, index);
    if (isUserFrame(frame)) return stack;
  }
  return stack;
}
