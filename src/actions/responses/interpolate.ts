import { isBuiltInSlot, RESERVED_SLOT, withBuiltInSlots } from '../../core/domain/built-in-slots.js';
import type { SlotType } from '../../core/domain/types.js';
import { PyFloat, PyFormatError, PyKeyError, pyFormat } from './python-format.js';
import type { RenderedString, RenderWarning } from './warnings.js';

// Rasa's default response interpolation (`rasa/core/nlg/interpolator.py`, format engine; Rasa's
// built-in slots are known names, None while unset):
// 1. every `{name}` (no newline or brace inside) is rewritten to `{0[name]}`;
// 2. the result is formatted with Python's str.format, the only argument being a dict of the names
//    that occur in the text and are known (`{context, ...slots, ...kwargs}`, kwargs win);
// 3. if the output still contains "0[" (a `{{name}}` escape kept the rewritten field), the original
//    text is formatted with an empty dict instead, which only unescapes `{{`/`}}`;
// 4. a KeyError (a name that is neither a slot nor a kwarg) returns the text exactly as written.
//    Rasa lets other format errors (a lone `{` or `}`) escape; here they also return the text as
//    written, with a warning, so one malformed response cannot break a turn.
//
// Values print as Python's str(): None, True/False, 'a' inside lists and dicts. Numbers: JSON does
// not keep 50.0 apart from 50, so a number held by a slot of type float prints as a Python float
// (the caller passes float only for values Rasa would have coerced: not those a custom action or a
// set_slots step set, which keep the form they were sent in)
// (50 -> "50.0", 0.00001 -> "1e-05", 1e16 -> "1e+16"); every other number (kwargs, text/any slots,
// numbers nested in lists or dicts) prints as an int when it is whole (50 -> "50") and as a float
// otherwise (2.5 -> "2.5").

const PLACEHOLDER = /\{([^\n{}]+?)\}/g;

export interface FormatValueInput {
  readonly slots: Readonly<Record<string, unknown>>;
  readonly slotTypes?: Readonly<Record<string, SlotType>>;
  readonly context: Readonly<Record<string, unknown>>;
  readonly kwargs?: Readonly<Record<string, unknown>>;
}

/**
 * The names a `{name}` placeholder can use: Rasa's `{context, ...slots, ...kwargs}`. With `only`, just
 * those names are prepared (a response names a few slots; the domain may have many).
 */
export function formatValues(
  input: FormatValueInput,
  only?: ReadonlySet<string>,
): Readonly<Record<string, unknown>> {
  const values: Record<string, unknown> = {};
  const wanted = (name: string): boolean => only === undefined || only.has(name);
  if (wanted('context')) values['context'] = input.context;
  // the few names a response uses are looked up; only a request for every slot needs the whole view
  const slots = only === undefined ? withBuiltInSlots(input.slots) : input.slots;
  for (const name of only ?? Object.keys(slots)) {
    if (!Object.hasOwn(slots, name) && !(isBuiltInSlot(name) && name !== RESERVED_SLOT)) continue;
    const value = slots[name];
    const isFloat = input.slotTypes?.[name] === 'float' && typeof value === 'number';
    values[name] = isFloat ? new PyFloat(value) : (value ?? null);
  }
  for (const [name, value] of Object.entries(input.kwargs ?? {}))
    if (wanted(name)) values[name] = value ?? null;
  return values;
}

/** The placeholder names a text uses. */
export function placeholderNames(text: string): Set<string> {
  return new Set([...text.matchAll(PLACEHOLDER)].map((match) => match[1] ?? ''));
}

/** Interpolates one string; `values` comes from formatValues. */
export function interpolateFormat(
  text: string,
  values: Readonly<Record<string, unknown>>,
  path = 'text',
): RenderedString {
  const known = Object.fromEntries(
    [...text.matchAll(PLACEHOLDER)]
      .map((match) => match[1] ?? '')
      .filter((name) => Object.hasOwn(values, name))
      .map((name) => [name, values[name]]),
  );
  try {
    const formatted = pyFormat(text.replace(PLACEHOLDER, '{0[$1]}'), [known]);
    return { text: formatted.includes('0[') ? pyFormat(text, [{}]) : formatted, warnings: [] };
  } catch (error) {
    return { text, warnings: [formatWarning(error, path)] };
  }
}

function formatWarning(error: unknown, path: string): RenderWarning {
  if (error instanceof PyKeyError) {
    return {
      code: 'RESPONSE_PLACEHOLDER_UNRESOLVED',
      path,
      message: `No slot or value named ${JSON.stringify(String(error.key))}; the text is sent without interpolation.`,
    };
  }
  const reason = error instanceof PyFormatError ? error.message : String(error);
  return {
    code: 'RESPONSE_FORMAT_INVALID',
    path,
    message: `The text is not a valid format string (${reason}); it is sent without interpolation.`,
  };
}

/**
 * Applies `render` to every string inside a value (lists and dicts recursively, other leaves kept),
 * the way Rasa interpolates `custom`, `attachment`, `quick_replies` and the buttons. Returns a copy.
 */
export function mapStrings(
  value: unknown,
  render: (text: string, path: string) => string,
  path: string,
): unknown {
  if (typeof value === 'string') return render(value, path);
  if (Array.isArray(value)) return value.map((item, index) => mapStrings(item, render, `${path}[${index}]`));
  if (isPlainObject(value)) {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, mapStrings(item, render, `${path}.${key}`)]),
    );
  }
  return value;
}

function isPlainObject(value: unknown): value is Readonly<Record<string, unknown>> {
  if (typeof value !== 'object' || value === null) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
