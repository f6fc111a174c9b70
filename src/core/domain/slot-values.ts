import type { Slot } from './types.js';

export type Coercion =
  { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly value: unknown };

/**
 * Rasa's slot coercion (applied to values from commands and by action_run_slot_rejections): the value
 * converted to the slot type, or `ok: false` with the value unchanged when it does not fit.
 */
export function coerceSlotValue(slot: Pick<Slot, 'type' | 'values'>, value: unknown): Coercion {
  if (value === null || value === undefined) return { ok: true, value: null };
  switch (slot.type) {
    case 'text':
    case 'any':
      return { ok: true, value };
    case 'list':
      return { ok: true, value: Array.isArray(value) ? value : [value] };
    case 'bool':
      return coerceBool(value);
    case 'float':
      return coerceFloat(value);
    case 'categorical':
      return coerceCategorical(slot.values, value);
  }
}

function coerceBool(value: unknown): Coercion {
  if (typeof value === 'boolean') return { ok: true, value };
  if (typeof value === 'number') return { ok: true, value: value === 1 };
  if (typeof value !== 'string') return { ok: false, value };
  const text = value.trim().toLowerCase();
  if (text !== '' && Number.isFinite(Number(text))) return { ok: true, value: Number(text) === 1 };
  if (text === 'true' || text === 'yes') return { ok: true, value: true };
  if (text === 'false' || text === 'no') return { ok: true, value: false };
  return { ok: false, value };
}

function coerceFloat(value: unknown): Coercion {
  if (typeof value === 'number') return { ok: true, value };
  if (typeof value === 'boolean') return { ok: true, value: value ? 1 : 0 };
  // Number() ignores surrounding white space, as Python's float() does, but reads blank text as 0
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) {
    return { ok: true, value: Number(value) };
  }
  return { ok: false, value };
}

function coerceCategorical(values: readonly string[], value: unknown): Coercion {
  const text = pythonStr(value);
  if (values.includes(text)) return { ok: true, value: text };
  const lower = text.toLowerCase();
  const match = values.find((candidate) => candidate.toLowerCase() === lower);
  return match === undefined ? { ok: false, value } : { ok: true, value: match };
}

function pythonStr(value: unknown): string {
  if (value === true) return 'True';
  if (value === false) return 'False';
  return String(value);
}
