import type { NoopStep } from '../../flows/types.js';
import { CONTINUE } from '../step-result.js';
import type { StepResult, StepScope } from '../step-result.js';

export function runNoopStep(_step: NoopStep, _scope: StepScope): StepResult {
  return CONTINUE;
}
