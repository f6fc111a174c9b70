import { isRunnableAction } from '../../domain/actions.js';
import { hasTemplate, renderTemplate } from '../../flows/template.js';
import type { ActionStep } from '../../flows/types.js';
import { frameContext } from '../../stack/operations.js';
import { CONTINUE, pause } from '../step-result.js';
import type { StepResult, StepScope } from '../step-result.js';

/**
 * Runs the action; a name that renders to nothing runnable is skipped, which is how optional hooks such
 * as `validate_{{context.collect}}` work in Rasa.
 */
export function runActionStep(step: ActionStep, scope: StepScope): StepResult {
  const name = hasTemplate(step.action)
    ? renderTemplate(step.action, { context: frameContext(scope.frame), slots: scope.draft.slots }).trim()
    : step.action;
  return name !== '' && isRunnableAction(scope.context.domain, name) ? pause(name) : CONTINUE;
}
