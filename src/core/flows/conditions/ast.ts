import { assertNever } from '../../errors.js';

// The parsed form of a condition (pypred's grammar). Every node carries the 0-based offset of the
// token it starts at (for operators: the operator token), so diagnostics can point into the text.

export type CompareOperator = '=' | '!=' | '<' | '<=' | '>' | '>=';

export type LogicalOperator = 'and' | 'or';

export type ConditionAst =
  | {
      readonly kind: 'logical';
      readonly operator: LogicalOperator;
      readonly left: ConditionAst;
      readonly right: ConditionAst;
      readonly offset: number;
    }
  | { readonly kind: 'not'; readonly operand: ConditionAst; readonly offset: number }
  | {
      readonly kind: 'compare';
      readonly operator: CompareOperator;
      readonly left: ConditionAst;
      readonly right: ConditionAst;
      readonly offset: number;
    }
  | {
      readonly kind: 'contains';
      readonly left: ConditionAst;
      readonly right: ConditionAst;
      readonly offset: number;
    }
  /** `right` is the pattern token; it is never resolved as an identifier. */
  | {
      readonly kind: 'matches';
      readonly left: ConditionAst;
      readonly right: ConditionAst;
      readonly offset: number;
    }
  /** An unquoted word: resolved against the document when evaluated (`slots.x`, `foo`). */
  | { readonly kind: 'identifier'; readonly name: string; readonly offset: number }
  /** A quoted word, without its quotes. */
  | { readonly kind: 'string'; readonly value: string; readonly offset: number }
  | { readonly kind: 'number'; readonly value: number; readonly offset: number }
  | { readonly kind: 'constant'; readonly value: boolean | null; readonly offset: number }
  | { readonly kind: 'undefined'; readonly offset: number }
  | { readonly kind: 'empty'; readonly offset: number }
  /** `{a 'b' 1}`: a literal set, used on the left of `contains`. */
  | { readonly kind: 'set'; readonly items: readonly ConditionAst[]; readonly offset: number };

export interface ConditionSyntaxError {
  readonly message: string;
  /** 0-based offset into the condition text */
  readonly offset: number;
}

/** The direct sub-nodes of a node, in source order. */
export function childrenOf(node: ConditionAst): readonly ConditionAst[] {
  switch (node.kind) {
    case 'logical':
    case 'compare':
    case 'contains':
    case 'matches':
      return [node.left, node.right];
    case 'not':
      return [node.operand];
    case 'set':
      return node.items;
    case 'identifier':
    case 'string':
    case 'number':
    case 'constant':
    case 'undefined':
    case 'empty':
      return [];
    default:
      return assertNever(node, 'condition node');
  }
}
