import { evaluateCondition, parseCondition } from '../flows/conditions/index.js';
import { renderTemplate } from '../flows/template.js';
import type { Condition } from '../flows/types.js';

export interface ConditionScope {
  readonly slots: Readonly<Record<string, unknown>>;
  readonly context: Readonly<Record<string, unknown>>;
}

/**
 * Rasa's pipeline: render Jinja with the frame context, parse, evaluate against slots and context. A
 * condition that does not parse or fails to evaluate is false.
 */
export function conditionHolds(condition: Condition, scope: ConditionScope): boolean {
  if (condition.ast) return evaluateCondition(condition.ast, scope);
  if (!condition.isTemplate) return false;
  const parsed = parseCondition(
    renderTemplate(condition.text, { context: scope.context, slots: scope.slots }),
  );
  return parsed.ok ? evaluateCondition(parsed.ast, scope) : false;
}
