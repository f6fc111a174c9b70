import type { SetSlotsStep } from '../../flows/types.js';
import { CONTINUE } from '../step-result.js';
import type { StepResult, StepScope } from '../step-result.js';

export function runSetSlotsStep(step: SetSlotsStep, scope: StepScope): StepResult {
  for (const { name, value } of step.slots) scope.draft.setSlot(name, value, { filled_by: 'set_slots' });
  return CONTINUE;
}
