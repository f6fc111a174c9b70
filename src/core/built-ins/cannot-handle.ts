import type { EngineContext } from '../engine-context.js';
import type { TrackerState } from '../events/tracker-state.js';
import { patternFrame, push } from '../stack/operations.js';
import { stackEffect } from './stack-effect.js';
import type { ActionEffect } from './types.js';

/** Rasa's reason when the knowledge search found nothing that answers the question. */
export const NO_RELEVANT_ANSWER_REASON = 'cannot_handle_no_relevant_answer';

const CANNOT_HANDLE_PATTERN = 'pattern_cannot_handle';

/**
 * Pushes pattern_cannot_handle with a reason, as Rasa's EnterpriseSearchPolicy does when the search
 * has no answer: the pattern's branch on the reason says so (`utter_no_relevant_answer_found`).
 */
export function cannotHandleEffects(
  state: TrackerState,
  context: EngineContext,
  reason: string,
): ActionEffect[] {
  if (!context.flows.has(CANNOT_HANDLE_PATTERN)) return [];
  const frame = patternFrame({
    frameId: context.newFrameId(),
    patternId: CANNOT_HANDLE_PATTERN,
    context: { reason },
  });
  return stackEffect(state.stack, push(state.stack, frame));
}
