import { assertNever } from '../../errors.js';
import type { ConditionAst } from './ast.js';
import {
  assertHashable,
  isMarker,
  pyContains,
  pyOrder,
  strContains,
  supportsMembership,
} from './python-operators.js';
import { compileMatchPattern } from './python-regex.js';
import {
  ConditionEvaluationError,
  EMPTY,
  hasKey,
  isDict,
  pyEquals,
  PyFrozenSet,
  pyKind,
  pyNotEquals,
  pyTruthy,
  pyTypeName,
  UNDEFINED,
} from './python-values.js';

// pypred's evaluator. Values follow Python semantics (python-values.ts); anything Python would
// raise on throws ConditionEvaluationError, which the public API turns into "false".

export interface ConditionDocument {
  readonly slots: Readonly<Record<string, unknown>>;
  readonly context: Readonly<Record<string, unknown>>;
}

type Root = Readonly<Record<string, unknown>>;

export function evaluateAst(ast: ConditionAst, document: ConditionDocument): boolean {
  return pyTruthy(evaluateNode(ast, { context: document.context, slots: document.slots }));
}

function evaluateNode(node: ConditionAst, root: Root): unknown {
  switch (node.kind) {
    case 'logical':
      return evaluateLogical(node.operator, node.left, node.right, root);
    case 'not':
      return !pyTruthy(evaluateNode(node.operand, root));
    case 'compare':
      return compare(node.operator, evaluateNode(node.left, root), evaluateNode(node.right, root));
    case 'contains':
      return evaluateContains(node.left, node.right, root);
    case 'matches':
      return evaluateMatches(node.left, node.right, root);
    case 'identifier':
      return resolveIdentifier(root, node.name);
    case 'string':
    case 'number':
    case 'constant':
      return node.value;
    case 'undefined':
      return UNDEFINED;
    case 'empty':
      return EMPTY;
    case 'set':
      return new PyFrozenSet(node.items.map((item) => setItem(item, root)));
    default:
      return assertNever(node, 'condition node');
  }
}

/** `and`/`or` short-circuit and yield a bool, not an operand as Python's own `and` would. */
function evaluateLogical(
  operator: 'and' | 'or',
  left: ConditionAst,
  right: ConditionAst,
  root: Root,
): boolean {
  const leftValue = pyTruthy(evaluateNode(left, root));
  if (operator === 'and' ? !leftValue : leftValue) return leftValue;
  return pyTruthy(evaluateNode(right, root));
}

function compare(operator: '=' | '!=' | '<' | '<=' | '>' | '>=', left: unknown, right: unknown): boolean {
  if (operator === '=') return pyEquals(left, right);
  if (operator === '!=') return pyNotEquals(left, right);
  if (isMarker(left) || isMarker(right)) return false;
  return pyOrder(operator, left, right);
}

/** The right side is only evaluated when the left side can hold members at all. */
function evaluateContains(left: ConditionAst, right: ConditionAst, root: Root): boolean {
  const container = evaluateNode(left, root);
  if (!supportsMembership(container)) return false;
  return pyContains(container, evaluateNode(right, root));
}

function evaluateMatches(left: ConditionAst, right: ConditionAst, root: Root): boolean {
  const subject = evaluateNode(left, root);
  if (typeof subject !== 'string') return false;
  const pattern = compileMatchPattern(right);
  if (!pattern.ok) throw new ConditionEvaluationError(pattern.message);
  return pattern.regex.test(subject);
}

/** pypred reads `.value` of non-word set items, which only numbers and constants have. */
function setItem(item: ConditionAst, root: Root): unknown {
  switch (item.kind) {
    case 'identifier': {
      const value = resolveIdentifier(root, item.name);
      assertHashable(value);
      return value;
    }
    case 'string':
    case 'number':
    case 'constant':
      return item.value;
    default:
      throw new ConditionEvaluationError(`a set literal cannot hold a ${item.kind} expression`);
  }
}

/**
 * pypred's LiteralResolver: an exact top-level key first, then a walk along the dotted path that
 * tests `part in value` before indexing, exactly as Python would. A missing key gives Undefined;
 * a present null gives null; walking into null, a number or a bool raises.
 */
export function resolveIdentifier(root: Root, name: string): unknown {
  if (hasKey(root, name)) return root[name];
  if (!name.includes('.')) return UNDEFINED;
  let current: unknown = root;
  for (const part of name.split('.')) {
    const next = member(current, part);
    if (next === NOT_FOUND) return UNDEFINED;
    current = next;
  }
  return current;
}

const NOT_FOUND = Symbol('not found');

function member(container: unknown, key: string): unknown {
  if (isDict(container)) return hasKey(container, key) ? container[key] : NOT_FOUND;
  switch (pyKind(container)) {
    case 'str':
      if (strContains(container as string, key))
        throw new ConditionEvaluationError('string indices must be integers');
      return NOT_FOUND;
    case 'list':
    case 'frozenset':
      if (pyContains(container, key)) {
        throw new ConditionEvaluationError(`'${pyTypeName(container)}' object cannot be indexed by str`);
      }
      return NOT_FOUND;
    case 'undefined':
      return NOT_FOUND;
    default:
      throw new ConditionEvaluationError(`argument of type '${pyTypeName(container)}' is not iterable`);
  }
}
