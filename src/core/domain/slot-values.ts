import { PYTHON_SPACE, pythonStrip } from '../text/python-space.js';
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
  const word = pythonStrip(value).toLowerCase();
  if (word === 'true' || word === 'yes') return { ok: true, value: true };
  if (word === 'false' || word === 'no') return { ok: true, value: false };
  return { ok: false, value };
}

const DECIMAL_DIGITS = /^\p{Nd}+$/u;

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

/**
 * Rasa's FloatSlot coerces with Python's float(). A value it cannot read stays as it is (`ok: false`);
 * so do the infinities and NaN that float() also reads ("inf", "nan", "1e999"): JSON, which every store
 * and edge speaks, cannot write them (see docs/decisions.md).
 */
function coerceFloat(value: unknown): Coercion {
  const number = pythonFloat(value);
  return Number.isFinite(number) ? { ok: true, value: number } : { ok: false, value };
}

/** Python's float(): NaN where it raises. */
function pythonFloat(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'boolean') return value ? 1 : 0;
  return typeof value === 'string' ? floatOfText(value) : Number.NaN;
}

// float()'s finite numbers: digits with single underscores between them, an optional point and exponent
const DIGITS = '[0-9](?:_?[0-9])*';
const PYTHON_FINITE_FLOAT = new RegExp(
  `^[+-]?(?:${DIGITS}(?:\\.(?:${DIGITS})?)?|\\.${DIGITS})(?:[eE][+-]?${DIGITS})?$`,
);
const ANY_DECIMAL_DIGIT = /\p{Nd}/gu;
// float() strips Python's white space except U+001C-U+001F (ASCII characters it keeps as they are)
const FLOAT_SPACE = PYTHON_SPACE.replace('\\x1c-\\x20', '\\x20');
const FLOAT_SPACE_AT_ENDS = new RegExp(`^[${FLOAT_SPACE}]+|[${FLOAT_SPACE}]+$`, 'g');

/**
 * Python's float() of a string: white space around the number, any script's decimal
 * digits, `1_000`, `1e3` and `.5` are read; `0x10`, `0b1`, `0o7` and blank text, which JavaScript's
 * Number() reads, are not.
 */
function floatOfText(text: string): number {
  const ascii = text
    .replace(FLOAT_SPACE_AT_ENDS, '')
    .replace(ANY_DECIMAL_DIGIT, (digit) => String(digitValue(digit.codePointAt(0) as number)));
  return PYTHON_FINITE_FLOAT.test(ascii) ? Number(ascii.replaceAll('_', '')) : Number.NaN;
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
