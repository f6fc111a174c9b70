import { pyRepr } from '../../core/flows/conditions/python-str.js';
import { hasKey, isDict } from '../../core/flows/conditions/python-values.js';

// The part of Python's str.format that Rasa's response interpolation reaches: `{{`/`}}` escapes,
// fields made of an argument name followed by `[key]`/`.attr` lookups, `!s`/`!r`/`!a` conversions,
// and str() of the looked-up value. Format specs (`{x:>5}`) are not implemented: Rasa wraps every
// placeholder as `{0[...]}`, which puts a `:` inside the brackets, so a spec never reaches here
// from a well-formed response; a field that has one raises PyFormatError.

/** A number held by a float slot. JSON cannot tell 50 from 50.0; the slot type can, so it prints "50.0". */
export class PyFloat {
  constructor(readonly value: number) {}
}

/** Python's KeyError from a missing key: Rasa catches exactly this one and leaves the text as written. */
export class PyKeyError extends Error {
  constructor(readonly key: string | number) {
    super(`KeyError: ${pyRepr(key)}`);
    this.name = 'PyKeyError';
  }
}

/** Python's ValueError, IndexError, TypeError or AttributeError while formatting. */
export class PyFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PyFormatError';
  }
}

/**
 * Python's repr() of a float: integral values keep a ".0", and the exponent form is used below 1e-4
 * and from 1e16 on, with at least two exponent digits (1e-05, 1e+16).
 */
export function pyFloatRepr(value: number): string {
  if (Number.isNaN(value)) return 'nan';
  if (!Number.isFinite(value)) return value > 0 ? 'inf' : '-inf';
  if (value === 0) return Object.is(value, -0) ? '-0.0' : '0.0';
  const magnitude = Math.abs(value);
  if (magnitude < 1e-4 || magnitude >= 1e16) {
    return value.toExponential().replace(/e([+-])(\d)$/, 'e$10$2');
  }
  return Number.isInteger(value) ? `${value}.0` : String(value);
}

/** Python's str(): strings as they are, everything else as its repr. */
export function pyFormatStr(value: unknown): string {
  return typeof value === 'string' ? value : pyFormatRepr(value);
}

function pyFormatRepr(value: unknown): string {
  if (value instanceof PyFloat) return pyFloatRepr(value.value);
  if (Array.isArray(value)) return `[${value.map(pyFormatRepr).join(', ')}]`;
  if (isDict(value)) {
    const entries = Object.keys(value).filter((key) => hasKey(value, key));
    return `{${entries.map((key) => `${pyRepr(key)}: ${pyFormatRepr(value[key])}`).join(', ')}}`;
  }
  return pyRepr(value);
}

/** `template.format(*args)` with no keyword arguments, as Rasa calls it. */
export function pyFormat(template: string, args: readonly unknown[]): string {
  const numbering = { next: 0, manual: false, automatic: false };
  let output = '';
  let index = 0;
  while (index < template.length) {
    const character = template.charAt(index);
    const following = template.charAt(index + 1);
    if ((character === '{' || character === '}') && following === character) {
      output += character;
      index += 2;
    } else if (character === '}') {
      throw new PyFormatError("Single '}' encountered in format string");
    } else if (character === '{') {
      const end = fieldEnd(template, index + 1);
      output += renderField(template.slice(index + 1, end), args, numbering);
      index = end + 1;
    } else {
      output += character;
      index += 1;
    }
  }
  return output;
}

function fieldEnd(template: string, start: number): number {
  let depth = 1;
  for (let index = start; index < template.length; index += 1) {
    const character = template.charAt(index);
    if (character === '{') depth += 1;
    if (character === '}' && --depth === 0) return index;
  }
  throw new PyFormatError("expected '}' before end of string");
}

interface Numbering {
  next: number;
  manual: boolean;
  automatic: boolean;
}

function renderField(field: string, args: readonly unknown[], numbering: Numbering): string {
  const nameEnd = fieldNameEnd(field);
  const name = field.slice(0, nameEnd);
  let conversion = '';
  let spec = '';
  if (field.charAt(nameEnd) === '!') {
    conversion = field.charAt(nameEnd + 1);
    const rest = field.slice(nameEnd + 2);
    if (rest !== '' && !rest.startsWith(':')) {
      throw new PyFormatError("expected ':' after conversion specifier");
    }
    spec = rest.slice(1);
  } else if (field.charAt(nameEnd) === ':') {
    spec = field.slice(nameEnd + 1);
  }
  if (spec !== '') throw new PyFormatError(`format spec '${spec}' is not supported`);
  const value = resolveFieldName(name, args, numbering);
  switch (conversion) {
    case '':
    case 's':
      return pyFormatStr(value);
    case 'r':
    case 'a':
      return pyFormatRepr(value);
    default:
      throw new PyFormatError(`Unknown conversion specifier ${conversion}`);
  }
}

/** The field name ends at the first ':' or '!' that is not inside `[...]`. */
function fieldNameEnd(field: string): number {
  let index = 0;
  while (index < field.length) {
    const character = field.charAt(index);
    if (character === '[') {
      const close = field.indexOf(']', index + 1);
      index = close === -1 ? field.length : close + 1;
    } else if (character === ':' || character === '!') {
      return index;
    } else {
      index += 1;
    }
  }
  return field.length;
}

function resolveFieldName(name: string, args: readonly unknown[], numbering: Numbering): unknown {
  const first = /^[^.[]*/.exec(name)?.[0] ?? '';
  let value = argument(first, args, numbering);
  let rest = name.slice(first.length);
  while (rest !== '') {
    if (rest.startsWith('.')) {
      const attribute = /^\.([^.[]*)/.exec(rest)?.[1] ?? '';
      if (attribute === '') throw new PyFormatError('Empty attribute in format string');
      throw new PyFormatError(`'${typeof value}' object has no attribute '${attribute}'`);
    }
    const close = rest.indexOf(']');
    if (close === -1) throw new PyFormatError("Missing ']' in format string");
    const key = rest.slice(1, close);
    if (key === '') throw new PyFormatError('Empty attribute in format string');
    value = getItem(value, /^\d+$/.test(key) ? Number(key) : key);
    rest = rest.slice(close + 1);
    if (rest !== '' && !rest.startsWith('.') && !rest.startsWith('[')) {
      throw new PyFormatError("Only '.' or '[' may follow ']' in format field specifier");
    }
  }
  return value;
}

function argument(first: string, args: readonly unknown[], numbering: Numbering): unknown {
  let position: number;
  if (first === '') {
    if (numbering.manual) {
      throw new PyFormatError('cannot switch from manual field specification to automatic field numbering');
    }
    numbering.automatic = true;
    position = numbering.next++;
  } else if (/^\d+$/.test(first)) {
    if (numbering.automatic) {
      throw new PyFormatError('cannot switch from automatic field numbering to manual field specification');
    }
    numbering.manual = true;
    position = Number(first);
  } else {
    throw new PyKeyError(first);
  }
  if (position >= args.length) throw new PyFormatError('Replacement index out of range');
  return args[position];
}

/** Python's value[key] for the values a tracker holds; dict keys are always strings. */
function getItem(container: unknown, key: string | number): unknown {
  if (container instanceof PyFloat) throw new PyFormatError("'float' object is not subscriptable");
  if (isDict(container)) {
    if (typeof key === 'string' && hasKey(container, key)) return container[key];
    throw new PyKeyError(key);
  }
  if (Array.isArray(container) || typeof container === 'string') {
    const items: readonly unknown[] = Array.isArray(container) ? container : [...container];
    if (typeof key === 'string') throw new PyFormatError('indices must be integers, not str');
    if (key >= items.length) throw new PyFormatError('index out of range');
    return items[key];
  }
  throw new PyFormatError('object is not subscriptable');
}
