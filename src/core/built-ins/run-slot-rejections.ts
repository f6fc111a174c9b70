import { coerceSlotValue } from '../domain/slot-values.js';
import { parseCondition, tryEvaluateCondition } from '../flows/conditions/index.js';
import { renderTemplate } from '../flows/template.js';
import { contextValue, frameContext, topFrame } from '../stack/operations.js';
import type { ActionEffect, BuiltInAction } from './types.js';
import { eventEffect, utterEffect } from './types.js';

const TYPE_REJECTIONS: Readonly<Record<string, string>> = {
  bool: 'utter_boolean_slot_rejection',
  float: 'utter_float_slot_rejection',
  categorical: 'utter_categorical_slot_rejection',
};

/**
 * action_run_slot_rejections: checks the value just given for the slot being collected (or validated):
 * a value of the wrong type, or one a rejection condition matches, is reset and answered with a response.
 */
export const actionRunSlotRejections: BuiltInAction = (state, context) => {
  const frame = topFrame(state.stack);
  const slotName = contextValue(frame, 'collect') ?? contextValue(frame, 'validate');
  if (typeof slotName !== 'string') return [];
  const slot = context.domain.slots.get(slotName);
  const value = state.slots[slotName] ?? null;
  if (!slot || value === null) return [];
  const coerced = coerceSlotValue(slot, value);
  if (!coerced.ok) {
    const response = TYPE_REJECTIONS[slot.type] ?? 'utter_internal_error_rasa';
    return [eventEffect({ event: 'slot', name: slotName, value: null }), utterEffect(response, { value })];
  }
  const effects: ActionEffect[] =
    coerced.value === value ? [] : [eventEffect({ event: 'slot', name: slotName, value: coerced.value })];
  const slots = { ...state.slots, [slotName]: coerced.value };
  const listed = contextValue(frame, 'rejections');
  const rejections = Array.isArray(listed) ? (listed as { if?: unknown; utter?: unknown }[]) : [];
  const scope = { slots, context: frameContext(frame) };
  for (const rejection of rejections) {
    const text = renderTemplate(String(rejection.if ?? ''), scope);
    const parsed = parseCondition(text);
    // a condition that cannot be read or evaluated rejects with Rasa's internal error response
    const result = parsed.ok ? tryEvaluateCondition(parsed.ast, scope) : undefined;
    if (result?.ok && !result.value) continue;
    const utter = result?.ok ? String(rejection.utter) : 'utter_internal_error_rasa';
    return [...effects, eventEffect({ event: 'slot', name: slotName, value: null }), utterEffect(utter)];
  }
  return effects;
};
