/**
 * Shared helpers of the corpus action stubs: where the corpus lives, reading its fixtures, and the
 * small bits of rasa-sdk / Python behaviour the upstream actions rely on (`SlotSet`, `str(float)`).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { corpusRoot } from '../../support/corpus.js';
import type { ActionContext } from '../../../src/actions/custom/in-process.js';
import { parseCsv } from './csv.js';
import type { CsvRecord } from './csv.js';

/**
 * The corpus folder: `$PARLEY_CORPUS` (resolved from the working directory) when set, else the
 * `shared/corpus` folder next to the repository (`../shared/corpus` seen from its root).
 */
export { corpusRoot };

export function corpusPath(project: string, ...parts: string[]): string {
  return join(corpusRoot(), project, ...parts);
}

export function readCorpusJson(project: string, ...parts: string[]): unknown {
  return JSON.parse(readFileSync(corpusPath(project, ...parts), 'utf8')) as unknown;
}

export function readCorpusCsv(project: string, ...parts: string[]): CsvRecord[] {
  return parseCsv(readFileSync(corpusPath(project, ...parts), 'utf8'));
}

/** Loads a value on first use and keeps it (the fixtures are read once per process). */
export function lazy<T>(load: () => T): () => T {
  let loaded: { value: T } | undefined;
  return () => (loaded ??= { value: load() }).value;
}

/** rasa-sdk's `SlotSet(name, value)` as an event dict. */
export function slotSet(name: string, value: unknown): Record<string, unknown> {
  return { event: 'slot', name, value };
}

/** A slot as text (numbers included, as the upstream actions compare with `str`/`int`), or null. */
export function slotText(context: ActionContext, name: string): string | null {
  const value = context.slot(name);
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return null;
}

/** Python's `int(value)` for a slot value: a whole number, or undefined where Python raises. */
export function pythonInt(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? Math.trunc(value) || 0 : undefined;
  if (typeof value === 'string' && /^\s*[+-]?\d+\s*$/.test(value)) return Number.parseInt(value, 10);
  return undefined;
}

/** Python's `str(value)` of a slot value in an f-string: None and True/False spelled as Python does. */
export function pythonStr(value: unknown): string {
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  return String(value);
}

/** Python's `str(float)`: a whole number keeps its `.0` (`10000.0`), other values print the same. */
export function pythonFloat(value: number): string {
  return Number.isInteger(value) ? value.toFixed(1) : String(value);
}

/** Python's `str.title()`: the first letter of every run of letters upper case, the rest lower case. */
export function pythonTitle(text: string): string {
  return text.toLowerCase().replace(/(^|[^a-z])([a-z])/g, (_, before: string, letter: string) => {
    return before + letter.toUpperCase();
  });
}

/** `f"{x:.2f}"` (the stubs' amounts never sit on a binary tie, where JS and Python could differ). */
export function twoDecimals(value: number): string {
  return value.toFixed(2);
}
