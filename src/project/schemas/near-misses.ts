import type { SchemaObject } from 'ajv';
import type { DiagnosticCode } from '../../core/diagnostic-codes.js';
import { closest } from './problems.js';
import type { SchemaProblem } from './problems.js';

/**
 * Maps whose schema is open (Rasa hands their unknown keys on, to a custom tracker store say) cannot
 * refuse a key, so `urll:` in `action_endpoint` passed in silence and the URL kept its default. A schema
 * annotated `x-near-miss: <code>` has its unknown keys checked here instead: one that is a near miss of a
 * key the map allows and lacks is reported under that code; any other extra key still passes.
 */
export function nearMissKeys(schema: SchemaObject, data: unknown, pointer = ''): SchemaProblem[] {
  if (!isMap(data)) return [];
  const properties = (schema['properties'] ?? {}) as Record<string, SchemaObject>;
  const problems: SchemaProblem[] = [];
  const code = schema['x-near-miss'] as DiagnosticCode | undefined;
  if (code !== undefined) {
    const absent = Object.keys(properties).filter((key) => !(key in data));
    for (const key of Object.keys(data)) {
      if (key in properties) continue;
      const guess = closest(key, absent);
      if (guess === undefined) continue;
      problems.push({
        instancePath: `${pointer}/${escapePointer(key)}`,
        message: `unknown key '${key}' (this section reads ${Object.keys(properties).join(', ')}); it is passed on unread, and '${guess}' keeps its default`,
        hint: `did you mean '${guess}'?`,
        code,
        misspelling: { parent: pointer, key, intended: guess },
      });
    }
  }
  for (const [key, child] of Object.entries(properties)) {
    if (typeof child === 'object' && key in data)
      problems.push(...nearMissKeys(child, data[key], `${pointer}/${escapePointer(key)}`));
  }
  return problems;
}

function isMap(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function escapePointer(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}
