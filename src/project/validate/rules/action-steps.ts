import { BUILT_IN_ACTIONS } from '../../../core/domain/built-in-actions.js';
import { hasTemplate } from '../../../core/flows/template.js';
import type { ValidationRule } from '../rule.js';

/** Action steps name a response, a declared custom action or a built-in action. */
export const actionStepsRule: ValidationRule = {
  name: 'action-steps',
  check(context) {
    for (const { flow, step } of context.projectSteps()) {
      if (step.kind !== 'action' || hasTemplate(step.action)) continue;
      if (!context.isKnownAction(step.action, BUILT_IN_ACTIONS)) {
        context.reportStep(
          'ACTION_UNKNOWN',
          flow,
          step,
          `Flow '${flow.id}' runs '${step.action}', which is no response, declared action or built-in action.`,
        );
      }
    }
  },
};
