import { isBuiltInSlot } from '../../../core/domain/built-in-slots.js';
import type { Slot } from '../../../core/domain/types.js';
import {
  conditionComparisons,
  conditionIdentifiers,
  parseCondition,
} from '../../../core/flows/conditions/index.js';
import { renderTemplate } from '../../../core/flows/template.js';
import type { Condition } from '../../../core/flows/types.js';
import type { RuleContext, ValidationRule } from '../rule.js';

interface Owner {
  readonly flowId?: string;
  readonly stepId?: string;
}

/** Conditions read `slots.`/`context.` names, name declared slots, and compare bool and categorical slots sensibly. */
export const conditionsRule: ValidationRule = {
  name: 'conditions',
  check(context) {
    for (const { condition, owner } of allConditions(context)) checkCondition(context, condition, owner);
  },
};

function* allConditions(context: RuleContext): Generator<{ condition: Condition; owner: Owner }> {
  for (const flow of context.projectFlows) {
    if (flow.guard) yield { condition: flow.guard, owner: { flowId: flow.id } };
    for (const step of flow.steps) {
      const owner = { flowId: flow.id, stepId: step.id };
      if (step.next.kind === 'branches') {
        for (const branch of step.next.branches)
          if (branch.condition) yield { condition: branch.condition, owner };
      }
      if (step.kind === 'collect')
        for (const rejection of step.rejections) yield { condition: rejection.condition, owner };
    }
  }
  for (const slot of context.assistant.domain.slots.values()) {
    if (slot.isDefault) continue;
    for (const rejection of slot.validation?.rejections ?? [])
      yield { condition: rejection.condition, owner: {} };
  }
  for (const response of context.assistant.domain.responses.values()) {
    if (response.isDefault) continue;
    for (const variation of response.variations) {
      if (variation.condition?.kind === 'predicate')
        yield { condition: variation.condition.condition, owner: {} };
    }
  }
}

function checkCondition(context: RuleContext, condition: Condition, owner: Owner): void {
  if (condition.isTemplate) {
    // Rasa checks templated conditions by rendering them with every context value set to None.
    const rendered = renderTemplate(condition.text, { context: {}, slots: {} });
    const parsed = parseCondition(rendered);
    if (!parsed.ok) {
      context.report(
        'CONDITION_SYNTAX',
        condition.source,
        `Condition '${condition.text}' does not parse: ${parsed.error.message}.`,
        owner,
      );
    }
    return;
  }
  if (!condition.ast) return;
  for (const { name } of conditionIdentifiers(condition.ast))
    checkIdentifier(context, condition, name, owner);
  for (const { identifier, literal } of conditionComparisons(condition.ast)) {
    const slot = slotOf(context, identifier);
    if (slot) checkComparison(context, condition, slot, literal, owner);
  }
}

function checkIdentifier(context: RuleContext, condition: Condition, name: string, owner: Owner): void {
  if (name.startsWith('context.') || name === 'context' || name === 'slots') return;
  if (!name.startsWith('slots.')) {
    context.report(
      'CONDITION_NAMESPACE',
      condition.source,
      `Condition '${condition.text}' reads '${name}', which has no 'slots.' or 'context.' prefix.`,
      owner,
    );
    return;
  }
  const slotName = name.slice('slots.'.length).split('.')[0] ?? '';
  if (!context.assistant.domain.slots.has(slotName) && !isBuiltInSlot(slotName)) {
    context.report(
      'CONDITION_UNKNOWN_SLOT',
      condition.source,
      `Condition '${condition.text}' reads the undeclared slot '${slotName}'.`,
      owner,
    );
  }
}

function slotOf(context: RuleContext, identifier: string): Slot | undefined {
  if (!identifier.startsWith('slots.')) return undefined;
  return context.assistant.domain.slots.get(identifier.slice('slots.'.length));
}

function checkComparison(
  context: RuleContext,
  condition: Condition,
  slot: Slot,
  literal: unknown,
  owner: Owner,
): void {
  if (literal === null || isMarker(literal)) return;
  if (slot.type === 'bool' && typeof literal !== 'boolean') {
    context.report(
      'CONDITION_BOOL_VALUE',
      condition.source,
      `Condition '${condition.text}' compares the bool slot '${slot.name}' with ${JSON.stringify(literal)}.`,
      owner,
    );
  }
  if (slot.type === 'categorical' && !categoricalAllows(slot, literal)) {
    context.report(
      'CONDITION_CATEGORICAL_VALUE',
      condition.source,
      `Condition '${condition.text}' compares '${slot.name}' with ${JSON.stringify(literal)}, which is not one of: ${slot.values.join(', ')}.`,
      owner,
    );
  }
}

function categoricalAllows(slot: Slot, literal: unknown): boolean {
  if (typeof literal === 'number') return slot.values.some((value) => Number(value) === literal);
  const text = String(literal).toLowerCase();
  return slot.values.some((value) => value.toLowerCase() === text);
}

function isMarker(literal: unknown): boolean {
  return typeof literal === 'object' && literal !== null && 'kind' in literal;
}
