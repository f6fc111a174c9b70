import { childrenOf, type ConditionAst, type ConditionSyntaxError } from './ast.js';
import { compileMatchPattern } from './python-regex.js';

// pypred's semantic checks (Predicate.is_valid): a condition that parses can still be invalid.
// Rasa's validator rejects such conditions at load time, and at run time evaluating one raises,
// which makes it false, so they are reported with the syntax errors.

export function validateAst(node: ConditionAst): ConditionSyntaxError | undefined {
  const problem = nodeProblem(node);
  if (problem !== undefined) return problem;
  for (const child of childrenOf(node)) {
    const childProblem = validateAst(child);
    if (childProblem !== undefined) return childProblem;
  }
  return undefined;
}

function nodeProblem(node: ConditionAst): ConditionSyntaxError | undefined {
  if (node.kind === 'contains' && !isContainsOperand(node.right)) {
    return {
      message: 'contains needs a literal, a name or a constant (true, false, null) on its right side',
      offset: node.right.offset,
    };
  }
  if (node.kind === 'matches') {
    const pattern = compileMatchPattern(node.right);
    if (!pattern.ok) return { message: pattern.message, offset: node.right.offset };
  }
  return undefined;
}

function isContainsOperand(node: ConditionAst): boolean {
  return (
    node.kind === 'identifier' || node.kind === 'string' || node.kind === 'number' || node.kind === 'constant'
  );
}
