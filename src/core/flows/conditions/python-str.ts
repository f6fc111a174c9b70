import { assertNever } from '../../errors.js';
import { hasKey, isDict, pyKind, UNDEFINED, type PyFrozenSet } from './python-values.js';

// Python's str() and repr() of the values a tracker holds, for rendering them the way Jinja does.

/** Python's str(value): None, True/False, 5, 2.5, ['a', 1], {'k': 'v'}. */
export function pyStr(value: unknown): string {
  return typeof value === 'string' ? value : pyRepr(value);
}

export function pyRepr(value: unknown): string {
  const kind = pyKind(value);
  switch (kind) {
    case 'none':
      return 'None';
    case 'bool':
      return value === true ? 'True' : 'False';
    case 'float':
      return pyNumber(Number(value));
    case 'str':
      return pyStringRepr(value as string);
    case 'list':
      return `[${(value as readonly unknown[]).map(pyRepr).join(', ')}]`;
    case 'dict':
      return dictRepr(value);
    case 'frozenset':
      return setRepr(value as PyFrozenSet);
    case 'undefined':
    case 'empty':
      return value === UNDEFINED ? 'Undefined' : 'Empty';
    default:
      return assertNever(kind, 'Python value kind');
  }
}

function setRepr(value: PyFrozenSet): string {
  return value.items.length === 0 ? 'frozenset()' : `frozenset({${value.items.map(pyRepr).join(', ')}})`;
}

function dictRepr(value: unknown): string {
  if (!isDict(value)) return '{}';
  const entries = Object.keys(value).filter((key) => hasKey(value, key));
  return `{${entries.map((key) => `${pyStringRepr(key)}: ${pyRepr(value[key])}`).join(', ')}}`;
}

/**
 * A whole number prints as a Python int (JSON cannot tell 5 from 5.0, and ids and counts are ints);
 * other numbers print as Python's float repr, which uses an exponent below 1e-4.
 */
export function pyNumber(value: number): string {
  if (Number.isNaN(value)) return 'nan';
  if (!Number.isFinite(value)) return value > 0 ? 'inf' : '-inf';
  if (Number.isInteger(value)) return BigInt(value).toString();
  if (Math.abs(value) >= 1e-4) return String(value);
  return value.toExponential().replace(/e([+-])(\d)$/, 'e$10$2');
}

/** Single quotes unless the text has a single quote and no double quote, as Python picks. */
function pyStringRepr(text: string): string {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let body = '';
  for (const character of text) body += escapeCharacter(character, quote);
  return `${quote}${body}${quote}`;
}

const ESCAPES: Readonly<Record<string, string>> = { '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function escapeCharacter(character: string, quote: string): string {
  if (character === quote) return `\\${quote}`;
  const escape = ESCAPES[character];
  if (escape !== undefined) return escape;
  const code = character.codePointAt(0) ?? 0;
  if (code < 0x20 || code === 0x7f) return `\\x${code.toString(16).padStart(2, '0')}`;
  return character;
}
