import { slotsFor } from '../domain/built-in-slots.js';
import { evaluateCondition, parseCondition } from '../flows/conditions/index.js';
import type { ParseResult } from '../flows/conditions/index.js';
import { renderTemplate } from '../flows/template.js';
import type { Condition } from '../flows/types.js';

export interface ConditionScope {
  readonly slots: Readonly<Record<string, unknown>>;
  readonly context: Readonly<Record<string, unknown>>;
}

/**
 * Rasa's pipeline: render Jinja with the frame context, parse, evaluate against slots and context. A
 * condition that does not parse or fails to evaluate is false. Rasa's built-in slots read as null
 * while unset (`slots.language is null`), as its domain always holds them.
 */
export function conditionHolds(condition: Condition, given: ConditionScope): boolean {
  const { context } = given;
  if (condition.ast)
    return evaluateCondition(condition.ast, { context, slots: slotsFor(condition.text, given.slots) });
  if (!condition.isTemplate) return false;
  const rendered = renderTemplate(condition.text, { context, slots: slotsFor(condition.text, given.slots) });
  const parsed = parseRendered(rendered);
  return parsed.ok
    ? evaluateCondition(parsed.ast, { context, slots: slotsFor(rendered, given.slots) })
    : false;
}

// Rendered template conditions repeat (`slots.amount is not null` for every collect of `amount`), so
// their parses are memoised; the memo is bounded, and parsing is pure, so it never changes a result.
const MEMO_LIMIT = 1000;
const parsedConditions = new Map<string, ParseResult>();

function parseRendered(text: string): ParseResult {
  let parsed = parsedConditions.get(text);
  if (!parsed) {
    if (parsedConditions.size >= MEMO_LIMIT) parsedConditions.clear();
    parsed = parseCondition(text);
    parsedConditions.set(text, parsed);
  }
  return parsed;
}
