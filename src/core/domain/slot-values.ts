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

/**
 * Rasa's bool_from_any: text that Python's str.isnumeric() accepts goes to float(), which reads only
 * decimal digits, with no sign, point or white space ("1.0", " 1" and "-1" are refused); other text
 * must be true/yes/false/no once stripped of Python's white space and lower-cased.
 */
function coerceBool(value: unknown): Coercion {
  if (typeof value === 'boolean') return { ok: true, value };
  if (typeof value === 'number') return { ok: true, value: value === 1 };
  if (typeof value !== 'string') return { ok: false, value };
  if (DECIMAL_DIGITS.test(value)) return { ok: true, value: decimalNumber(value) === 1 };
  const word = value.replace(PYTHON_SPACE_AT_ENDS, '').toLowerCase();
  if (word === 'true' || word === 'yes') return { ok: true, value: true };
  if (word === 'false' || word === 'no') return { ok: true, value: false };
  return { ok: false, value };
}

const DECIMAL_DIGITS = /^\p{Nd}+$/u;

// Python's str.isspace() characters: JavaScript's trim() also strips U+FEFF but keeps U+001C-U+001F and U+0085
const PYTHON_SPACE = '\\t-\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
const PYTHON_SPACE_AT_ENDS = new RegExp(`^[${PYTHON_SPACE}]+|[${PYTHON_SPACE}]+$`, 'g');

/** Python's float() reads the decimal digits of every script ('١' is 1, '１' too). */
function decimalNumber(digits: string): number {
  return Number([...digits].map((digit) => digitValue(digit.codePointAt(0) as number)).join(''));
}

/** Unicode assigns each script's decimal digits as ten consecutive code points, zero first. */
function digitValue(codePoint: number): number {
  let zero = codePoint;
  while (DECIMAL_DIGITS.test(String.fromCodePoint(zero - 1))) zero -= 1;
  return (codePoint - zero) % 10;
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
