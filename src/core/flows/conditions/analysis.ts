import { childrenOf, type ConditionAst } from './ast.js';
import { EMPTY, UNDEFINED } from './python-values.js';

// Static facts about a parsed condition, for the project validator (which slots a condition reads,
// and which literal values it compares them with).

export interface IdentifierUse {
  readonly name: string;
  readonly offset: number;
}

export interface LiteralComparison {
  readonly identifier: string;
  /** string, number, boolean, null, or the UNDEFINED / EMPTY markers ({kind: 'undefined' | 'empty'}) */
  readonly literal: unknown;
  readonly offset: number;
}

/** Every unquoted word the condition reads, in source order. A `matches` pattern is not read. */
export function identifiersOf(node: ConditionAst): IdentifierUse[] {
  if (node.kind === 'identifier') return [{ name: node.name, offset: node.offset }];
  const children = node.kind === 'matches' ? [node.left] : childrenOf(node);
  return children.flatMap(identifiersOf);
}

/** `identifier <op> literal` and `literal <op> identifier` comparisons, in source order. */
export function comparisonsOf(node: ConditionAst): LiteralComparison[] {
  const nested = childrenOf(node).flatMap(comparisonsOf);
  if (node.kind !== 'compare') return nested;
  const own = literalComparison(node.left, node.right) ?? literalComparison(node.right, node.left);
  return own === undefined ? nested : [own, ...nested];
}

function literalComparison(identifier: ConditionAst, other: ConditionAst): LiteralComparison | undefined {
  if (identifier.kind !== 'identifier') return undefined;
  const literal = literalValue(other);
  if (literal === NOT_LITERAL) return undefined;
  return { identifier: identifier.name, literal, offset: identifier.offset };
}

const NOT_LITERAL = Symbol('not a literal');

function literalValue(node: ConditionAst): unknown {
  switch (node.kind) {
    case 'string':
    case 'number':
    case 'constant':
      return node.value;
    case 'undefined':
      return UNDEFINED;
    case 'empty':
      return EMPTY;
    default:
      return NOT_LITERAL;
  }
}
