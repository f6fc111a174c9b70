import { RESERVED_SLOT } from '../../../core/domain/built-in-slots.js';
import type { CollectStep, Flow } from '../../../core/flows/types.js';
import type { RuleContext, ValidationRule } from '../rule.js';

const SLOT_NAME = /^[a-zA-Z_][a-zA-Z0-9_-]*$/;

/** Collect steps name a declared, collectable slot and have exactly one way to ask for it. */
export const collectStepsRule: ValidationRule = {
  name: 'collect-steps',
  check(context) {
    for (const { flow, step } of context.projectSteps()) {
      if (step.kind !== 'collect') continue;
      checkSlot(context, flow, step);
      checkRejections(context, flow, step);
    }
  },
};

function checkSlot(context: RuleContext, flow: Flow, step: CollectStep): void {
  const { domain } = context.assistant;
  if (!SLOT_NAME.test(step.collect)) {
    context.reportStep(
      'COLLECT_INVALID_SLOT_NAME',
      flow,
      step,
      `'${step.collect}' is not a valid slot name.`,
    );
    return;
  }
  if (step.collect === RESERVED_SLOT) {
    context.reportStep(
      'STEP_RESERVED_SLOT',
      flow,
      step,
      `Flow '${flow.id}' collects '${step.collect}', a slot Rasa reserves for its own use.`,
    );
    return;
  }
  const slot = domain.slots.get(step.collect);
  if (!slot) {
    context.reportStep(
      'COLLECT_UNKNOWN_SLOT',
      flow,
      step,
      `Flow '${flow.id}' collects '${step.collect}', which the domain does not declare.`,
    );
    return;
  }
  if (slot.type === 'list') {
    context.reportStep(
      'COLLECT_LIST_SLOT',
      flow,
      step,
      `Flow '${flow.id}' collects the list slot '${step.collect}'.`,
    );
  }
  const hasUtter = context.hasResponse(step.utter);
  const hasAction = domain.actions.has(step.collectAction);
  if (hasUtter && hasAction) {
    context.reportStep(
      'COLLECT_TWO_QUESTIONS',
      flow,
      step,
      `Both '${step.utter}' and '${step.collectAction}' exist to ask for '${step.collect}'.`,
    );
  }
  if (!hasUtter && !hasAction && (slot.initialValue === null || slot.initialValue === undefined)) {
    context.reportStep(
      'COLLECT_NO_QUESTION',
      flow,
      step,
      `Nothing asks for '${step.collect}': there is no response '${step.utter}' and no action '${step.collectAction}'.`,
    );
  }
}

function checkRejections(context: RuleContext, flow: Flow, step: CollectStep): void {
  for (const rejection of step.rejections) {
    if (!context.hasResponse(rejection.utter)) {
      context.reportStep(
        'REJECTION_UNKNOWN_RESPONSE',
        flow,
        step,
        `A rejection of '${step.collect}' utters '${rejection.utter}', which is no response.`,
        rejection.condition.source,
      );
    }
  }
}
