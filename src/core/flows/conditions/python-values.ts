// Python value semantics for condition evaluation. JS null is Python None, numbers are floats (pypred
// turns every numeric literal into a float), arrays are lists, plain objects are dicts, and
// PyFrozenSet is the frozenset a `{...}` literal evaluates to. UNDEFINED and EMPTY are pypred's
// Undefined and Empty singletons; they are compared by identity, so a dict slot that happens to
// look like `{kind: 'undefined'}` is still a dict.

export const UNDEFINED: { readonly kind: 'undefined' } = Object.freeze({ kind: 'undefined' });
export const EMPTY: { readonly kind: 'empty' } = Object.freeze({ kind: 'empty' });

export class PyFrozenSet {
  readonly items: readonly unknown[];

  /** Duplicates are dropped the way Python's hash + == would drop them (`{1 true}` has one item). */
  constructor(items: readonly unknown[]) {
    const unique: unknown[] = [];
    for (const item of items) if (!unique.some((kept) => pyEquals(kept, item))) unique.push(item);
    this.items = unique;
  }

  has(value: unknown): boolean {
    return this.items.some((item) => pyEquals(item, value));
  }
}

/** A Python exception raised while evaluating (TypeError and friends); the condition becomes false. */
export class ConditionEvaluationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConditionEvaluationError';
  }
}

export type PyKind =
  'none' | 'bool' | 'float' | 'str' | 'list' | 'dict' | 'frozenset' | 'undefined' | 'empty';

// A JS `undefined` inside a list has no Python counterpart; it is read as None.
export function pyKind(value: unknown): PyKind {
  if (value === UNDEFINED) return 'undefined';
  if (value === EMPTY) return 'empty';
  if (value === null || value === undefined) return 'none';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'number' || typeof value === 'bigint') return 'float';
  if (typeof value === 'string') return 'str';
  if (Array.isArray(value)) return 'list';
  if (value instanceof PyFrozenSet) return 'frozenset';
  return 'dict';
}

const TYPE_NAMES: Readonly<Record<PyKind, string>> = {
  none: 'NoneType',
  bool: 'bool',
  float: 'float',
  str: 'str',
  list: 'list',
  dict: 'dict',
  frozenset: 'frozenset',
  undefined: 'Undefined',
  empty: 'Empty',
};

export function pyTypeName(value: unknown): string {
  return TYPE_NAMES[pyKind(value)];
}

export function isDict(value: unknown): value is Readonly<Record<string, unknown>> {
  return pyKind(value) === 'dict';
}

/** A dict key is present when it is an own property holding something other than JS undefined. */
export function hasKey(dict: Readonly<Record<string, unknown>>, key: string): boolean {
  return Object.hasOwn(dict, key) && dict[key] !== undefined;
}

export function pyLength(value: unknown): number | undefined {
  if (typeof value === 'string') return [...value].length;
  if (Array.isArray(value)) return value.length;
  if (value instanceof PyFrozenSet) return value.items.length;
  if (isDict(value)) return Object.keys(value).filter((key) => hasKey(value, key)).length;
  return undefined;
}

/** Python's bool(value). Undefined and Empty are falsy; NaN is truthy, as in Python. */
export function pyTruthy(value: unknown): boolean {
  switch (pyKind(value)) {
    case 'none':
    case 'undefined':
    case 'empty':
      return false;
    case 'bool':
      return value === true;
    case 'float':
      return Number(value) !== 0;
    default:
      return pyLength(value) !== 0;
  }
}

/**
 * Python's `a == b`, including the reflected lookups on pypred's singletons:
 * Undefined equals only Undefined/Empty (so `Undefined == None` is false), and Empty equals
 * Undefined, Empty and anything of length zero.
 */
export function pyEquals(left: unknown, right: unknown): boolean {
  if (left === UNDEFINED) return right === UNDEFINED || right === EMPTY;
  if (left === EMPTY) return emptyEquals(right);
  if (right === UNDEFINED) return false;
  if (right === EMPTY) return emptyEquals(left);
  return plainEquals(left, right);
}

/**
 * Python's `a != b`. Not always the negation of `==`: Undefined defines its own `__ne__` that is
 * true for everything but Undefined, so `undefined != empty` is true while `undefined = empty` is too.
 */
export function pyNotEquals(left: unknown, right: unknown): boolean {
  if (left === UNDEFINED) return right !== UNDEFINED;
  if (left === EMPTY) return !emptyEquals(right);
  if (right === UNDEFINED) return true;
  if (right === EMPTY) return !emptyEquals(left);
  return !plainEquals(left, right);
}

function emptyEquals(other: unknown): boolean {
  if (other === UNDEFINED || other === EMPTY) return true;
  return pyLength(other) === 0;
}

function plainEquals(left: unknown, right: unknown): boolean {
  const leftKind = pyKind(left);
  const rightKind = pyKind(right);
  if (isNumeric(leftKind) && isNumeric(rightKind)) return Number(left) === Number(right);
  if (leftKind !== rightKind) return false;
  switch (leftKind) {
    case 'none':
      return true;
    case 'str':
      return left === right;
    case 'list':
      return listEquals(left as readonly unknown[], right as readonly unknown[]);
    case 'frozenset':
      return setEquals(left as PyFrozenSet, right as PyFrozenSet);
    case 'dict':
      return dictEquals(
        left as Readonly<Record<string, unknown>>,
        right as Readonly<Record<string, unknown>>,
      );
    default:
      return left === right;
  }
}

/** bool is a subclass of int in Python, so True == 1 and True < 2. */
export function isNumeric(kind: PyKind): boolean {
  return kind === 'bool' || kind === 'float';
}

function listEquals(left: readonly unknown[], right: readonly unknown[]): boolean {
  return left.length === right.length && left.every((item, index) => pyEquals(item, right[index]));
}

function setEquals(left: PyFrozenSet, right: PyFrozenSet): boolean {
  return left.items.length === right.items.length && left.items.every((item) => right.has(item));
}

function dictEquals(
  left: Readonly<Record<string, unknown>>,
  right: Readonly<Record<string, unknown>>,
): boolean {
  const keys = Object.keys(left).filter((key) => hasKey(left, key));
  if (keys.length !== pyLength(right)) return false;
  return keys.every((key) => hasKey(right, key) && pyEquals(left[key], right[key]));
}
