import type { ErrorObject } from 'ajv';
import { DIAGNOSTIC_CODES } from '../../core/diagnostic-codes.js';
import type { DiagnosticCode } from '../../core/diagnostic-codes.js';
import { foldMisspellings } from './misspellings.js';
import type { ExplainedError } from './misspellings.js';

/** One schema violation, located by a JSON pointer into the parsed YAML. */
export interface SchemaProblem {
  /** JSON pointer, e.g. `/flows/transfer_money/steps/2/collect`; unknown keys point at the key itself. */
  instancePath: string;
  message: string;
  hint: string;
  /** the catalogue's own code for this kind of problem (`x-codes`), instead of the file kind's schema code */
  code?: DiagnosticCode;
  /** an unknown key that is a near miss of a key the place allows: later checks need not say it is missing */
  misspelling?: Misspelling;
}

export interface Misspelling {
  /** JSON pointer of the map holding the key */
  readonly parent: string;
  readonly key: string;
  /** the allowed key it is closest to */
  readonly intended: string;
}

/** The Parley annotations a schema may carry (see flows.ts). */
interface Annotations {
  'x-expected'?: string;
  'x-message'?: string;
  'x-hint'?: string;
  'x-hints'?: Record<string, string>;
  'x-codes'?: Record<string, DiagnosticCode>;
  /** what happens to an unknown key reported under a warning code (default: ignored, as in Rasa) */
  'x-ignored'?: string;
  properties?: Record<string, unknown>;
}

const UNION_KEYWORDS = new Set(['oneOf', 'anyOf']);
/** Keywords whose message is always built here, even when the schema has an `x-message`. */
const OWN_MESSAGE_KEYWORDS = new Set(['type', 'required', 'additionalProperties', 'enum', 'const']);

/**
 * Turns ajv errors (compiled with `allErrors` and `verbose`) into one problem per real mistake:
 * the errors of a failed oneOf/anyOf's branches fold into the union's own message, a type error
 * silences everything else said about the same value, and `if`/`propertyNames` bookkeeping is dropped.
 */
export function toProblems(errors: readonly ErrorObject[]): SchemaProblem[] {
  const problems: ExplainedError[] = [];
  const seen = new Set<string>();
  for (const error of relevantErrors(errors)) {
    const problem = withCode(toProblem(error), error);
    const key = `${problem.instancePath}\n${problem.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    problems.push({ error, problem });
  }
  return foldMisspellings(problems);
}

/** A problem the catalogue has a code of its own for (the schema's `x-codes`, per ajv keyword) carries it. */
function withCode(problem: SchemaProblem, error: ErrorObject): SchemaProblem {
  const schema = error.parentSchema as Annotations | undefined;
  const code = schema?.['x-codes']?.[error.keyword];
  if (code === undefined) return problem;
  // a key Rasa reads past is a warning: say what happens to it
  const ignored = error.keyword === 'additionalProperties' && DIAGNOSTIC_CODES[code].severity === 'warning';
  const fate = schema?.['x-ignored'] ?? 'it is ignored, as in Rasa';
  return { ...problem, code, ...(ignored ? { message: `${problem.message}; ${fate}` } : {}) };
}

function relevantErrors(errors: readonly ErrorObject[]): ErrorObject[] {
  let kept = errors.filter((e) => e.keyword !== 'if' && e.keyword !== 'propertyNames');
  const typeFailures = new Set(kept.filter((e) => e.keyword === 'type').map((e) => e.instancePath));
  kept = kept.filter((e) => e.keyword === 'type' || !typeFailures.has(e.instancePath));
  for (const union of kept.filter((e) => UNION_KEYWORDS.has(e.keyword))) {
    const branchPath = `${union.schemaPath}/`;
    const tooManyKinds = Array.isArray(union.params['passingSchemas']);
    kept = kept.filter((e) => {
      if (e === union) return true;
      if (e.schemaPath.startsWith(branchPath) && isWithin(e.instancePath, union.instancePath)) return false;
      // With two kinds present, each kind's schema complains about the other kind's keys: noise.
      const sameValue = e.instancePath === union.instancePath;
      return !(
        tooManyKinds &&
        sameValue &&
        (e.keyword === 'additionalProperties' || e.keyword === 'required')
      );
    });
  }
  return kept;
}

function isWithin(path: string, ancestor: string): boolean {
  return path === ancestor || path.startsWith(`${ancestor}/`);
}

function toProblem(error: ErrorObject): SchemaProblem {
  const schema = (error.parentSchema ?? {}) as Annotations;
  const params = error.params as Record<string, unknown>;
  const at = locate(error);
  const fallbackHint = schema['x-hints']?.[error.keyword] ?? schema['x-hint'];
  const custom = OWN_MESSAGE_KEYWORDS.has(error.keyword) ? undefined : schema['x-message'];
  switch (error.keyword) {
    case 'additionalProperties': {
      const key = String(params['additionalProperty']);
      const allowed = Object.keys(schema.properties ?? {});
      const expected = allowed.length > 0 ? ` (expected one of: ${allowed.join(', ')})` : '';
      const guess = closest(key, allowed);
      const hint = guess
        ? `did you mean '${guess}'?`
        : (fallbackHint ?? 'remove it, or check its spelling and indentation');
      const misspelling = guess ? { misspelling: { parent: error.instancePath, key, intended: guess } } : {};
      return { instancePath: at, message: `unknown property '${key}'${expected}`, hint, ...misspelling };
    }
    case 'required': {
      const key = String(params['missingProperty']);
      return {
        instancePath: at,
        message: `missing required property '${key}'`,
        hint: fallbackHint ?? `add '${key}:' here`,
      };
    }
    case 'type':
      return typeProblem(at, error.data, params['type'], schema);
    case 'enum': {
      const allowed = (error.schema as unknown[]).map(String);
      const guess = closest(String(error.data), allowed);
      return {
        instancePath: at,
        message: `must be one of: ${allowed.join(', ')} (found ${show(error.data)})`,
        hint: guess
          ? `did you mean '${guess}'? (values are case-sensitive)`
          : (fallbackHint ?? 'use one of the listed values'),
      };
    }
    case 'const':
      return {
        instancePath: at,
        message: `must be ${show(error.schema)}`,
        hint: fallbackHint ?? `set it to ${show(error.schema)}`,
      };
    case 'oneOf':
    case 'anyOf':
      return {
        instancePath: at,
        message: custom ?? 'does not match any of the allowed forms',
        hint: kindHint(error) ?? fallbackHint ?? 'check the structure of this item',
      };
    default:
      return {
        instancePath: at,
        message: custom ?? limitMessage(error.keyword, params) ?? error.message ?? 'is not valid',
        hint: fallbackHint ?? 'check this value against the expected format',
      };
  }
}

/** Unknown keys and bad property names point at the key itself. */
function locate(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  const key = error.keyword === 'additionalProperties' ? params['additionalProperty'] : error.propertyName;
  return typeof key === 'string' ? `${error.instancePath}/${escapePointer(key)}` : error.instancePath;
}

function escapePointer(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

const TYPE_WORDS: Record<string, string> = {
  object: 'a map',
  array: 'a list',
  string: 'a string',
  number: 'a number',
  integer: 'an integer',
  boolean: 'a boolean (true or false)',
  null: 'empty',
};

function typeProblem(at: string, data: unknown, type: unknown, schema: Annotations): SchemaProblem {
  const types = (Array.isArray(type) ? type : String(type).split(',')).map(String);
  const expected = schema['x-expected'] ?? types.map((t) => TYPE_WORDS[t] ?? t).join(' or ');
  const found = describe(data);
  let hint = schema['x-hints']?.['type'] ?? schema['x-hint'] ?? 'change the value to the expected type';
  if (types.includes('string') && (typeof data === 'number' || typeof data === 'boolean')) {
    hint = `wrap the value in quotes to keep it as text, e.g. "${String(data)}"`;
  } else if (types.includes('array') && found === 'a map') {
    hint = 'start each list item with "- "';
  } else if (types.includes('object') && found === 'a list') {
    hint = 'remove the "- " in front: this is a map, not a list';
  } else if (data === null || data === undefined) {
    hint = 'the value is empty: fill it in or remove the key';
  } else if (types.includes('array') && found !== 'a list') {
    hint = 'write a list: one "- item" per line, or [a, b]';
  } else if (types.includes('object') && found !== 'a map') {
    hint = 'write a map: one "key: value" per line';
  }
  return { instancePath: at, message: `must be ${expected} (found ${found})`, hint };
}

/** For a union of `{required: [kind]}` branches: say which kind keys were found, or guess one. */
function kindHint(error: ErrorObject): string | undefined {
  const branches = Array.isArray(error.schema) ? (error.schema as { required?: unknown }[]) : [];
  const kinds = branches.map((b) =>
    Array.isArray(b.required) && b.required.length === 1 ? b.required[0] : null,
  );
  if (kinds.length === 0 || kinds.some((k) => typeof k !== 'string')) return undefined;
  const data = error.data;
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return undefined;
  const keys = Object.keys(data);
  const present = keys.filter((k) => kinds.includes(k));
  if (present.length > 1) {
    return `found ${present.map((k) => `'${k}'`).join(' and ')}: split them into separate items`;
  }
  for (const key of keys) {
    const guess = closest(key, kinds as string[]);
    if (guess) return `found '${key}': did you mean '${guess}'?`;
  }
  return keys.length > 0 ? `found only: ${keys.join(', ')}` : 'the item is empty';
}

function limitMessage(keyword: string, params: Record<string, unknown>): string | undefined {
  const limit = Number(params['limit']);
  switch (keyword) {
    case 'minItems':
      return limit === 1 ? 'must not be empty' : `must have at least ${limit} items`;
    case 'maxItems':
      return `must have at most ${limit} items`;
    case 'minProperties':
      return limit === 1 ? 'must not be empty' : `must have at least ${limit} keys`;
    case 'maxProperties':
      return `must have at most ${limit} key${limit === 1 ? '' : 's'}`;
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return `must be ${String(params['comparison'])} ${limit}`;
    case 'pattern':
      return `must match the pattern ${String(params['pattern'])}`;
    case 'not':
      return 'is not allowed here';
    default:
      return undefined;
  }
}

function describe(value: unknown): string {
  if (value === null || value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a map';
  return `a ${typeof value} ${show(value)}`;
}

function show(value: unknown): string {
  return typeof value === 'string' ? `'${value}'` : (JSON.stringify(value) ?? String(value));
}

/** The candidate within a small edit distance of `word` (case-insensitive), if any. */
export function closest(word: string, candidates: readonly string[]): string | undefined {
  const lower = word.toLowerCase();
  let best: string | undefined;
  let bestDistance = Math.min(2, Math.ceil(word.length / 2) - 1) + 1;
  for (const candidate of candidates) {
    const distance = editDistance(lower, candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/** Levenshtein distance where swapping two neighbouring letters (`tpye`, `stesp`) counts as one edit. */
function editDistance(a: string, b: string): number {
  const rows: number[][] = [Array.from({ length: b.length + 1 }, (_, j) => j)];
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const above = rows[i - 1] ?? [];
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min((above[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, (above[j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, (rows[i - 2]?.[j - 2] ?? 0) + 1);
      row.push(best);
    }
    rows.push(row);
  }
  return rows[a.length]?.[b.length] ?? 0;
}
