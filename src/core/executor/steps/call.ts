import type { CallStep } from '../../flows/types.js';
import { push, userFrame } from '../../stack/operations.js';
import { CONTINUE } from '../step-result.js';
import type { StepResult, StepScope } from '../step-result.js';

/** The called flow runs on top; when it ends, the caller continues after the call step. */
export function runCallStep(step: CallStep, scope: StepScope): StepResult {
  if (!scope.context.flows.has(step.call)) return CONTINUE;
  const frame = userFrame({ frameId: scope.context.newFrameId(), flowId: step.call, frameType: 'call' });
  scope.draft.setStack(push(scope.draft.stack, frame));
  return CONTINUE;
}
