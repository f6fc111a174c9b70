import type { Frame, Stack, UserFlowFrame } from '../stack/frames.js';
import { isUserFrame } from '../stack/frames.js';
import { patternFrame, pop, push } from '../stack/operations.js';
import { CONTINUE_STEP_PREFIX, END_STEP, START_STEP } from '../flows/types.js';
import { resetScopedSlots } from './slot-reset.js';
import type { StepScope } from './step-result.js';

export const COMPLETED_PATTERN = 'pattern_completed';
export const CONTINUE_INTERRUPTED_PATTERN = 'pattern_continue_interrupted';
const SEARCH_PATTERN = 'pattern_search';

/**
 * The END of a flow: pop its frame, then (1) pattern_completed when nothing is left and the flow asks for
 * it, (2) pattern_continue_interrupted when an interrupting flow ended over unfinished flows, and
 * (3) reset the flow's scoped slots (not for called flows, whose slots belong to the caller).
 */
export function endFlow(scope: StepScope, previousStepId: string): void {
  const { draft, context, flow, frame } = scope;
  let stack = pop(draft.stack);
  draft.setStack(stack);
  draft.emit({ event: 'flow_completed', flow_id: flow.id, step_id: previousStepId });
  const isUserFlow = isUserFrame(frame);
  if (stack.length === 0 && (isUserFlow || frame.type === SEARCH_PATTERN) && flow.runPatternCompleted) {
    stack = push(
      stack,
      patternFrame({
        frameId: context.newFrameId(),
        patternId: COMPLETED_PATTERN,
        context: { previous_flow_name: flow.name },
      }),
    );
    draft.setStack(stack);
  } else if (isUserFlow && frame.frame_type === 'interrupt') {
    pushContinueInterrupted(scope, stack);
  }
  if (!(isUserFlow && frame.frame_type === 'call')) resetScopedSlots(scope);
}

/**
 * User flows left unfinished below the one that ended, topmost first. A flow entered by a `link` (from a
 * pattern or a flow that then ended) counts once it has started: it is the conversation's flow now, and
 * is offered like any other. Called flows belong to their caller; a linked flow still at START is only
 * about to run.
 */
export function interruptedFlows(stack: Stack): UserFlowFrame[] {
  return stack
    .filter(
      (frame): frame is UserFlowFrame =>
        isUserFrame(frame) &&
        (frame.frame_type === 'regular' ||
          frame.frame_type === 'interrupt' ||
          (frame.frame_type === 'link' && frame.step_id !== START_STEP)),
    )
    .filter((frame) => !isAtEnd(frame))
    .reverse();
}

function isAtEnd(frame: Frame): boolean {
  return frame.step_id === END_STEP || frame.step_id === `${CONTINUE_STEP_PREFIX}${END_STEP}`;
}

function pushContinueInterrupted(scope: StepScope, stack: Stack): void {
  const { draft, context } = scope;
  const interrupted = interruptedFlows(stack);
  const first = interrupted[0];
  if (!first) return;
  const names = interrupted.map((frame) => context.flows.get(frame.flow_id)?.name ?? frame.flow_id);
  const frameId = context.newFrameId();
  if (context.options.resumeInterruptedFlowsAtOnce) {
    draft.setStack(
      push(
        stack,
        patternFrame({
          frameId,
          patternId: CONTINUE_INTERRUPTED_PATTERN,
          context: { previous_flow_name: names[0] },
        }),
      ),
    );
    draft.emit({ event: 'flow_resumed', flow_id: first.flow_id, step_id: first.step_id });
    return;
  }
  const patternContext = {
    interrupted_flow_names: names,
    interrupted_flow_ids: interrupted.map((frame) => frame.flow_id),
    interrupted_flow_options: joinOptions(names),
    multiple_flows_interrupted: names.length > 1,
  };
  draft.setStack(
    push(stack, patternFrame({ frameId, patternId: CONTINUE_INTERRUPTED_PATTERN, context: patternContext })),
  );
}

/** "A", "A or B", "A, B or C" */
export function joinOptions(names: readonly string[]): string {
  if (names.length <= 1) return names[0] ?? '';
  return `${names.slice(0, -1).join(', ')} or ${names[names.length - 1]}`;
}
