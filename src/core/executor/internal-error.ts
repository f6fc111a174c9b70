import { TurnDraft } from '../draft.js';
import type { EngineContext } from '../engine-context.js';
import type { TrackerState } from '../events/tracker-state.js';
import type { Event } from '../events/types.js';
import { cancelFrame } from '../stack/cancel.js';
import { patternFrame, push } from '../stack/operations.js';
import type { StepScope } from './step-result.js';

export const INTERNAL_ERROR_PATTERN = 'pattern_internal_error';

/** Pushes pattern_internal_error, optionally after cancelling the active flow (Rasa's handling of broken steps). */
export function pushInternalError(
  scope: Pick<StepScope, 'draft' | 'context'>,
  options: { cancelFlow: boolean; errorType: string; info?: Readonly<Record<string, unknown>> },
): void {
  const { draft, context } = scope;
  let stack = draft.stack;
  if (options.cancelFlow) {
    const cancel = cancelFrame(stack, context.flows, context.newFrameId());
    if (cancel) stack = push(stack, cancel);
  }
  const error = patternFrame({
    frameId: context.newFrameId(),
    patternId: INTERNAL_ERROR_PATTERN,
    context: { error_type: options.errorType, info: options.info ?? {} },
  });
  draft.setStack(push(stack, error));
}

/**
 * The events that make a failure part of the conversation: pattern_internal_error on top, so the next
 * prediction tells the user something went wrong (used when an action fails at run time).
 */
export function internalErrorEvents(
  state: TrackerState,
  context: EngineContext,
  errorType = 'rasa_internal_error_default',
): readonly Event[] {
  // a failure while pattern_internal_error itself runs (its response cannot be produced) must not
  // stack another one: the pattern goes on, and the turn ends instead of looping
  if (state.stack.at(-1)?.flow_id === INTERNAL_ERROR_PATTERN) return [];
  const draft = new TurnDraft({ state, context });
  pushInternalError({ draft, context }, { cancelFlow: false, errorType });
  return draft.events;
}
