// Rasa's condition language (pypred): parse once, evaluate against {slots, context}.
import { comparisonsOf, identifiersOf } from './analysis.js';
import type { ConditionAst, ConditionSyntaxError } from './ast.js';
import { evaluateAst, type ConditionDocument } from './evaluate.js';
import { tokenize } from './lexer.js';
import { parseTokens } from './parser.js';
import { validateAst } from './validate.js';

export type { CompareOperator, ConditionAst, ConditionSyntaxError, LogicalOperator } from './ast.js';
export type { ConditionDocument } from './evaluate.js';
export { EMPTY, UNDEFINED } from './python-values.js';

export type ParseResult =
  | { readonly ok: true; readonly ast: ConditionAst }
  | { readonly ok: false; readonly error: ConditionSyntaxError };

/**
 * Parses a condition, reporting lexical, syntax and pypred's semantic errors (a `contains` whose
 * right side is not a literal, a `matches` pattern that does not compile) with a 0-based offset.
 * YAML booleans arrive as the text "True"/"False" and parse as the boolean constants.
 */
export function parseCondition(text: string): ParseResult {
  const lexed = tokenize(text);
  if (!lexed.ok) return lexed;
  const parsed = parseTokens(lexed.tokens);
  if (!parsed.ok) return parsed;
  const problem = validateAst(parsed.ast);
  return problem === undefined ? parsed : { ok: false, error: problem };
}

/** pypred semantics; any evaluation exception makes the whole result false (Rasa logs and treats it as false). */
export function evaluateCondition(ast: ConditionAst, document: ConditionDocument): boolean {
  const result = tryEvaluateCondition(ast, document);
  return result.ok && result.value;
}

/** Same, but distinguishes an evaluation error (Rasa treats it differently for rejections). */
export function tryEvaluateCondition(
  ast: ConditionAst,
  document: ConditionDocument,
): { readonly ok: true; readonly value: boolean } | { readonly ok: false; readonly error: string } {
  try {
    return { ok: true, value: evaluateAst(ast, document) };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}

/** Every unquoted identifier the condition reads, e.g. ['slots.amount', 'context.collect', 'foo'], in source order, with its offset. */
export function conditionIdentifiers(
  ast: ConditionAst,
): readonly { readonly name: string; readonly offset: number }[] {
  return identifiersOf(ast);
}

/**
 * Comparisons between an identifier and a literal (for the validator's bool/categorical checks):
 * e.g. `slots.x = 'a'` or `slots.x is true`. literal is the Python-ish value: string, number,
 * boolean, null, or the marker { kind: 'undefined' } / { kind: 'empty' }.
 */
export function conditionComparisons(
  ast: ConditionAst,
): readonly { readonly identifier: string; readonly literal: unknown; readonly offset: number }[] {
  return comparisonsOf(ast);
}
