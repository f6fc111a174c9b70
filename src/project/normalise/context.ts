import type { SourceRef } from '../../core/errors.js';
import type { ProjectDiagnostics } from '../diagnostics.js';
import { lazyPositionOf } from '../load/yaml-file.js';
import type { PathSegment, YamlFile } from '../load/yaml-file.js';

/** What a normaliser needs to point back at the YAML it reads. */
export interface SourceContext {
  readonly file: YamlFile;
  readonly diagnostics: ProjectDiagnostics;
  readonly isDefault: boolean;
}

export function sourceAt(context: SourceContext, path: readonly PathSegment[]): SourceRef | undefined {
  return context.isDefault ? undefined : lazyPositionOf(context.file, path, true);
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function asString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

export function asStringList(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

export function asBoolean(value: unknown, fallback: boolean): boolean {
  return typeof value === 'boolean' ? value : fallback;
}

/** Python's str() of a YAML scalar, as Rasa stores `if: False` guards and conditions. */
export function pythonString(value: unknown): string {
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (value === null || value === undefined) return 'None';
  return String(value);
}
