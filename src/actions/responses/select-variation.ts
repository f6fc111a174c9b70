import { slotsFor } from '../../core/domain/built-in-slots.js';
import type { ResponseCondition, ResponseVariation } from '../../core/domain/types.js';
import { assertNever } from '../../core/errors.js';
import {
  evaluateCondition,
  parseCondition,
  type ConditionDocument,
} from '../../core/flows/conditions/index.js';
import { pyEquals } from '../../core/flows/conditions/python-values.js';
import { renderTemplate } from '../../core/flows/template.js';
import type { Condition } from '../../core/flows/types.js';

// Rasa's ResponseVariationFilter. A variation is eligible when its condition holds (or it has none)
// and its channel is the output channel (or it has none). Of the eligible ones, only the first
// non-empty tier is kept:
//   1. conditional, for this channel     2. default, for this channel
//   3. conditional, no channel           4. default, no channel
// and one of that tier is picked at random. Nothing eligible => undefined; Rasa then utters
// `utter_internal_error_rasa` instead, which is the caller's job.

export interface VariationFilterInput {
  /** every domain slot by name; unset slots hold null */
  readonly slots: Readonly<Record<string, unknown>>;
  /** the context of the top stack frame */
  readonly context: Readonly<Record<string, unknown>>;
  /** the output channel's name (`rest`, `socketio`, ...) */
  readonly channel?: string;
}

export interface VariationSelectionInput extends VariationFilterInput {
  /** a number in [0, 1), like Math.random; injected so a turn can be replayed */
  readonly random: () => number;
}

/** The variations of the winning tier, in domain order. */
export function eligibleVariations(
  variations: readonly ResponseVariation[],
  input: VariationFilterInput,
): readonly ResponseVariation[] {
  const conditional = variations.filter(
    (variation) => variation.condition !== undefined && conditionHolds(variation.condition, input),
  );
  const unconditional = variations.filter((variation) => variation.condition === undefined);
  const forChannel = (variation: ResponseVariation): boolean =>
    variation.channel !== undefined && variation.channel === input.channel;
  const withoutChannel = (variation: ResponseVariation): boolean => variation.channel === undefined;
  const tiers = [
    conditional.filter(forChannel),
    unconditional.filter(forChannel),
    conditional.filter(withoutChannel),
    unconditional.filter(withoutChannel),
  ];
  return tiers.find((tier) => tier.length > 0) ?? [];
}

export function selectVariation(
  variations: readonly ResponseVariation[],
  input: VariationSelectionInput,
): ResponseVariation | undefined {
  const candidates = eligibleVariations(variations, input);
  if (candidates.length === 0) return undefined;
  const index = Math.min(candidates.length - 1, Math.max(0, Math.floor(input.random() * candidates.length)));
  return candidates[index];
}

/**
 * Whether a variation's condition holds.
 * - predicate: rendered with Jinja against `{slots, context}` when it has placeholders, then
 *   evaluated against `{slots, context}`; a predicate that does not parse or raises is false.
 * - legacy list `[{type: slot, name, value}]`: every item must match, as Rasa compares them: two
 *   strings case-insensitively (Python's casefold), anything else with Python's `==` (so "1" does
 *   not match 1, null matches an unset slot, and True == 1). An empty list never matches: Rasa
 *   reads it as a falsy condition, so the variation is neither conditional nor default.
 */
export function conditionHolds(condition: ResponseCondition, input: VariationFilterInput): boolean {
  switch (condition.kind) {
    case 'predicate': {
      const slots = slotsFor(condition.condition.text, input.slots);
      return predicateHolds(condition.condition, { slots, context: input.context });
    }
    case 'slots':
      return (
        condition.slots.length > 0 &&
        condition.slots.every(({ name, value }) => slotMatches(input.slots[name] ?? null, value))
      );
    default:
      return assertNever(condition, 'response condition');
  }
}

function predicateHolds(condition: Condition, document: ConditionDocument): boolean {
  if (condition.ast !== undefined) return evaluateCondition(condition.ast, document);
  if (!condition.isTemplate) return false;
  const parsed = parseCondition(renderTemplate(condition.text, { ...document }));
  return parsed.ok && evaluateCondition(parsed.ast, document);
}

function slotMatches(slotValue: unknown, expected: unknown): boolean {
  if (typeof slotValue === 'string' && typeof expected === 'string') {
    return caseFold(slotValue) === caseFold(expected);
  }
  return pyEquals(slotValue, expected ?? null);
}

/** An approximation of Python's str.casefold(): upper-casing first folds ß to SS, then lower-case. */
function caseFold(text: string): string {
  return text.toUpperCase().toLowerCase();
}
