import { parseCondition } from '../../core/flows/conditions/index.js';
import { hasTemplate } from '../../core/flows/template.js';
import type { Condition } from '../../core/flows/types.js';
import type { PathSegment } from '../load/yaml-file.js';
import { pythonString, sourceAt } from './context.js';
import type { SourceContext } from './context.js';

export interface ConditionOwner {
  readonly flowId?: string;
  readonly stepId?: string;
}

/**
 * Parses a condition at load time so a syntax error is a diagnostic. Conditions with Jinja placeholders
 * are parsed after rendering, at run time; the validator checks them with placeholders filled in.
 */
export function buildCondition(
  raw: unknown,
  context: SourceContext,
  path: readonly PathSegment[],
  owner: ConditionOwner = {},
): Condition {
  const text = pythonString(raw);
  const source = sourceAt(context, path);
  const base = { text, ...(source ? { source } : {}) };
  if (hasTemplate(text)) return { ...base, ast: undefined, isTemplate: true };
  const parsed = parseCondition(text);
  if (parsed.ok) return { ...base, ast: parsed.ast, isTemplate: false };
  context.diagnostics.at(
    'CONDITION_SYNTAX',
    source,
    `Condition '${text}' does not parse: ${parsed.error.message} (at character ${parsed.error.offset + 1}).`,
    owner,
  );
  return { ...base, ast: undefined, isTemplate: false };
}
