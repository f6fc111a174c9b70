import type { CollectStep } from '../../flows/types.js';
import { patternFrame, push } from '../../stack/operations.js';
import { pushInternalError } from '../internal-error.js';
import { CONTINUE } from '../step-result.js';
import type { StepResult, StepScope } from '../step-result.js';

export const COLLECT_PATTERN = 'pattern_collect_information';

/**
 * Hands the question to pattern_collect_information, which runs at once in the same loop: it validates a
 * value the slot may already have, asks when it is empty, and listens.
 */
export function runCollectStep(step: CollectStep, scope: StepScope): StepResult {
  const { draft, context } = scope;
  const slot = context.domain.slots.get(step.collect);
  // an utter_ask_ name listed under `actions:` is a response an NLG server provides
  const canAsk =
    context.domain.responses.has(step.utter) ||
    context.domain.actions.has(step.utter) ||
    context.domain.actions.has(step.collectAction);
  const hasInitialValue = slot !== undefined && slot.initialValue !== null && slot.initialValue !== undefined;
  if (!canAsk && !hasInitialValue) {
    pushInternalError(scope, { cancelFlow: true, errorType: 'rasa_internal_error_default' });
    return CONTINUE;
  }
  const frame = patternFrame({
    frameId: context.newFrameId(),
    patternId: COLLECT_PATTERN,
    context: {
      collect: step.collect,
      utter: step.utter,
      collect_action: step.collectAction,
      rejections: step.rejections.map((rejection) => ({
        if: rejection.condition.text,
        utter: rejection.utter,
      })),
    },
  });
  draft.setStack(push(draft.stack, frame));
  if (step.askBeforeFilling) draft.setSlot(step.collect, null);
  return CONTINUE;
}
