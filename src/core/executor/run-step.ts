import { assertNever } from '../errors.js';
import type { Step } from '../flows/types.js';
import type { StepResult, StepScope } from './step-result.js';
import { runActionStep } from './steps/action.js';
import { runCallStep } from './steps/call.js';
import { runCollectStep } from './steps/collect.js';
import { runLinkStep } from './steps/link.js';
import { runNoopStep } from './steps/noop.js';
import { runSetSlotsStep } from './steps/set-slots.js';

export function runStep(step: Step, scope: StepScope): StepResult {
  switch (step.kind) {
    case 'action':
      return runActionStep(step, scope);
    case 'collect':
      return runCollectStep(step, scope);
    case 'set_slots':
      return runSetSlotsStep(step, scope);
    case 'link':
      return runLinkStep(step, scope);
    case 'call':
      return runCallStep(step, scope);
    case 'noop':
      return runNoopStep(step, scope);
    default:
      return assertNever(step, 'step');
  }
}
