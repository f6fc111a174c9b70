import {
  ConditionEvaluationError,
  EMPTY,
  hasKey,
  isDict,
  isNumeric,
  pyEquals,
  pyKind,
  PyFrozenSet,
  pyTypeName,
  UNDEFINED,
} from './python-values.js';

// Python's ordering comparisons and `in` operator over the values of python-values.ts. Whatever
// Python would raise on (`'a' < 1.0`, `1.0 in 'abc'`, `[1] in {}`) throws ConditionEvaluationError.

export type OrderOperator = '<' | '<=' | '>' | '>=';

export function pyOrder(operator: OrderOperator, left: unknown, right: unknown): boolean {
  const leftKind = pyKind(left);
  const rightKind = pyKind(right);
  if (isNumeric(leftKind) && isNumeric(rightKind)) return applyOrder(operator, Number(left), Number(right));
  if (leftKind === 'str' && rightKind === 'str') {
    return applyOrder(operator, compareCodePoints(left as string, right as string), 0);
  }
  if (leftKind === 'list' && rightKind === 'list') {
    return listOrder(operator, left as readonly unknown[], right as readonly unknown[]);
  }
  if (left instanceof PyFrozenSet && right instanceof PyFrozenSet) return setOrder(operator, left, right);
  throw new ConditionEvaluationError(
    `'${operator}' not supported between instances of '${pyTypeName(left)}' and '${pyTypeName(right)}'`,
  );
}

function applyOrder(operator: OrderOperator, left: number, right: number): boolean {
  switch (operator) {
    case '<':
      return left < right;
    case '<=':
      return left <= right;
    case '>':
      return left > right;
    case '>=':
      return left >= right;
  }
}

/** Python orders strings by code point; JS `<` compares UTF-16 units, which differs past U+FFFF. */
function compareCodePoints(left: string, right: string): number {
  const a = [...left];
  const b = [...right];
  for (let index = 0; index < Math.min(a.length, b.length); index += 1) {
    const difference = (a[index]?.codePointAt(0) ?? 0) - (b[index]?.codePointAt(0) ?? 0);
    if (difference !== 0) return difference;
  }
  return a.length - b.length;
}

/**
 * Python's `needle in haystack`, on code points: JS `includes` works on UTF-16 units, so it would find a
 * lone surrogate inside a pair (`'\ud83d' in '😀'` is false in Python). A match may not begin or end
 * between the two halves of a pair.
 */
export function strContains(haystack: string, needle: string): boolean {
  for (let from = haystack.indexOf(needle); from !== -1; from = haystack.indexOf(needle, from + 1)) {
    if (!splitsPair(haystack, from) && !splitsPair(haystack, from + needle.length)) return true;
  }
  return false;
}

function splitsPair(text: string, index: number): boolean {
  const before = text.charCodeAt(index - 1);
  const after = text.charCodeAt(index);
  return before >= 0xd800 && before <= 0xdbff && after >= 0xdc00 && after <= 0xdfff;
}

/** Lists compare at their first unequal item, or by length when one is a prefix of the other. */
function listOrder(operator: OrderOperator, left: readonly unknown[], right: readonly unknown[]): boolean {
  const length = Math.min(left.length, right.length);
  for (let index = 0; index < length; index += 1) {
    if (!pyEquals(left[index], right[index])) return pyOrder(operator, left[index], right[index]);
  }
  return applyOrder(operator, left.length, right.length);
}

/** Sets are ordered by inclusion: `<=` is subset, `<` proper subset. */
function setOrder(operator: OrderOperator, left: PyFrozenSet, right: PyFrozenSet): boolean {
  const subset = left.items.every((item) => right.has(item));
  const superset = right.items.every((item) => left.has(item));
  switch (operator) {
    case '<':
      return subset && !superset;
    case '<=':
      return subset;
    case '>':
      return superset && !subset;
    case '>=':
      return superset;
  }
}

/** Whether `container` has a `__contains__` at all; pypred's `contains` is false without one. */
export function supportsMembership(container: unknown): boolean {
  const kind = pyKind(container);
  return kind === 'str' || kind === 'list' || kind === 'dict' || kind === 'frozenset' || kind === 'undefined';
}

/** Python's `element in container`, for a container that supportsMembership. */
export function pyContains(container: unknown, element: unknown): boolean {
  if (container === UNDEFINED) return false;
  if (typeof container === 'string') {
    if (typeof element !== 'string') {
      throw new ConditionEvaluationError(
        `'in <string>' requires string as left operand, not ${pyTypeName(element)}`,
      );
    }
    return strContains(container, element);
  }
  if (Array.isArray(container)) return container.some((item) => item === element || pyEquals(item, element));
  assertHashable(element);
  if (container instanceof PyFrozenSet) return container.has(element);
  // JSON dicts only have string keys, and no string equals a non-string in Python.
  return isDict(container) && typeof element === 'string' && hasKey(container, element);
}

export function assertHashable(value: unknown): void {
  const kind = pyKind(value);
  if (kind === 'list' || kind === 'dict') {
    throw new ConditionEvaluationError(`unhashable type: '${pyTypeName(value)}'`);
  }
}

export function isMarker(value: unknown): boolean {
  return value === UNDEFINED || value === EMPTY;
}
