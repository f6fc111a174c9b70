import type { LinkStep } from '../../flows/types.js';
import { patternFrame, pushBelowTop, userFrame } from '../../stack/operations.js';
import { CONTINUE } from '../step-result.js';
import type { StepResult, StepScope } from '../step-result.js';

/**
 * The linked flow is placed under the current one, which then ends, so the linked flow starts next. A link
 * to a pattern (pattern_human_handoff) pushes that pattern's frame instead of a user flow frame.
 */
export function runLinkStep(step: LinkStep, scope: StepScope): StepResult {
  const { context, draft } = scope;
  if (!context.flows.has(step.link)) return CONTINUE;
  const frameId = context.newFrameId();
  const frame = step.link.startsWith('pattern_')
    ? patternFrame({ frameId, patternId: step.link })
    : userFrame({ frameId, flowId: step.link, frameType: 'link' });
  draft.setStack(pushBelowTop(draft.stack, frame));
  return CONTINUE;
}
