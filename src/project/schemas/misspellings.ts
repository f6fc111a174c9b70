import type { ErrorObject } from 'ajv';
import type { SchemaProblem } from './problems.js';

/** A problem together with the ajv error it was made from. */
export interface ExplainedError {
  readonly error: ErrorObject;
  readonly problem: SchemaProblem;
}

/**
 * One misspelt key is one problem. A key that is a near miss of a key the place requires (`stesp:` in a
 * flow, `thn:` in a branch, `txt:` in a response variation) also makes that key missing, and ajv says
 * both: "unknown property 'stesp'" and "missing required property 'steps'" (or the union's "a branch is
 * either ..."). The two fold into one problem at the misspelt key: the missing key's code and message
 * (it is why the place is broken), naming the key found instead, with the guess as the hint.
 */
export function foldMisspellings(items: readonly ExplainedError[]): SchemaProblem[] {
  const folded = new Set<ExplainedError>();
  const replacements = new Map<ExplainedError, SchemaProblem>();
  for (const misspelt of items) {
    const guess = misspelt.problem.misspelling;
    if (guess === undefined) continue;
    const missing = items.find(
      (other) =>
        other !== misspelt &&
        !folded.has(other) &&
        other.error.instancePath === guess.parent &&
        requiredKeys(other.error).includes(guess.intended),
    );
    if (missing === undefined) continue;
    folded.add(missing);
    replacements.set(misspelt, {
      instancePath: misspelt.problem.instancePath,
      message: `${missing.problem.message} (found '${guess.key}')`,
      hint: `did you mean '${guess.intended}'?`,
      misspelling: guess,
      ...(missing.problem.code === undefined ? {} : { code: missing.problem.code }),
    });
  }
  return items.filter((item) => !folded.has(item)).map((item) => replacements.get(item) ?? item.problem);
}

/** The keys whose absence an error reports: `required`'s missing key, or those a union's branches require. */
function requiredKeys(error: ErrorObject): string[] {
  if (error.keyword === 'required') return [String(error.params['missingProperty'])];
  if (error.keyword !== 'oneOf' && error.keyword !== 'anyOf') return [];
  const branches = Array.isArray(error.schema) ? (error.schema as { required?: unknown }[]) : [];
  return branches.flatMap((branch) => (Array.isArray(branch.required) ? branch.required.map(String) : []));
}
